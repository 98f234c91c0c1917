// 405 with an Allow header for a known path called with another method.
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';

export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (req, res) => {
    res.setHeader('Allow', allowed.join(', '));
    throw new ApiError('method_not_allowed', 405, `${req.method} is not allowed here; use ${allowed.join(' or ')}.`);
  };
}
