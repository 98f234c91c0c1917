// A tiny HTTP client for the API under test: JSON in, status + parsed body out. Every /v1 response is
// checked against the served OpenAPI document on the way (a mismatch fails the calling test).
import type { ExecutionContext } from 'ava';
import { documentValidator } from './openapi-validator.js';
import { sharedSources } from './source-server.js';

// Creates fetch their documents for real: from this process's HTTPS file host.
const { packageUrl } = await sharedSources();

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: {
    key?: string;
    headers?: Record<string, string>;
    json?: unknown;
    body?: string | Uint8Array;
    form?: FormData;
  } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | Uint8Array | FormData | undefined = opts.form ?? opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const url = new URL(`${base}${path}`);
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(60_000) }).catch(
    (err: Error & { cause?: unknown }) => {
      throw new Error(`${method} ${url.pathname}: ${err.message} (${String(err.cause)})`);
    },
  );
  const text = await res.text();
  if (url.pathname.startsWith('/v1/') && url.pathname !== '/v1/openapi.json') {
    (await documentValidator(url.origin)).check(method, url.pathname.slice(3), res.status, text);
  }
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/**
 * Sends again while the answer is 503 (waiting what its Retry-After says, else a second) until
 * `timeoutMs` has passed; the last answer.
 */
export async function whileUnavailable(send: () => Promise<ApiResponse>, timeoutMs: number): Promise<ApiResponse> {
  for (const until = Date.now() + timeoutMs; ; ) {
    const res = await send();
    if (res.status !== 503 || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
}

/** Asserts an answer's status, with its body as the message: a CI run keeps only what a failure printed. */
export function assertStatus(t: ExecutionContext, res: ApiResponse, status: number): void {
  t.is(res.status, status, res.text);
}

/** The smallest create body: one signed URL of a package holding one PDF. */
export function createBody(extra: Record<string, unknown> = {}) {
  return {
    documents: [{ filename: 'package.zip', content_type: 'application/zip', url: packageUrl }],
    ...extra,
  };
}

export function errorCode(res: ApiResponse): string | undefined {
  const body = res.body as { error?: { code?: unknown } } | undefined;
  return typeof body?.error?.code === 'string' ? body.error.code : undefined;
}

/** The request field an error names (`param`), if it names one. */
export function errorParam(res: ApiResponse): string | undefined {
  const body = res.body as { error?: { param?: unknown } } | undefined;
  return typeof body?.error?.param === 'string' ? body.error.param : undefined;
}

export function errorMessage(res: ApiResponse): string {
  const body = res.body as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === 'string' ? body.error.message : '';
}

/** A multipart create body: files under `documents`, plus text fields. */
export function form(
  files: { name: string; data: Buffer; type?: string }[],
  fields: Record<string, string> = {},
): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of files)
    fd.append('documents', new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.name);
  return fd;
}
