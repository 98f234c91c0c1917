// The OpenAPI document at /v1/openapi.json and a readable page at /docs. Both are public, and the docs
// page's assets come from the installed swagger-ui-dist package: no CDN.
import express, { Router, type RequestHandler } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { buildOpenApiDocument } from '../openapi.js';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
};
`;

/** GET /v1/openapi.json: mounted ahead of /v1's authentication, as a single route (api/app.ts says why). */
export function openApiRoute(publicBaseUrl: string): RequestHandler {
  const document = JSON.stringify(buildOpenApiDocument(publicBaseUrl));
  return (_req, res) => {
    res.type('application/json').send(document);
  };
}

/** The readable page at /docs and its assets. */
export function docsRoutes(): Router {
  const router = Router();
  router.get('/docs', (req, res, next) => {
    // Relative asset paths in swagger-ui's index.html need the trailing slash.
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) return res.redirect(301, '/docs/');
    next();
  });
  router.get('/docs/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').send(INITIALIZER);
  });
  router.use('/docs', express.static(swaggerUiDir, { index: 'index.html', fallthrough: true }));
  return router;
}
