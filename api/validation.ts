// Turning zod failures into the interface's error bodies.
import { z } from '../src/openapi/zod.js';
import { ApiError } from './errors.js';

/** `documents.0.url` → `documents[0].url`, the way the interface names fields. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out || 'body';
}

/** 422 invalid_request whose message names every offending field. */
export function invalidRequest(error: z.ZodError): ApiError {
  const parts = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((k) => `${fieldName([...issue.path, k])}: unknown field`).join('; ');
    return `${fieldName(issue.path)}: ${issue.message}`;
  });
  const [first] = error.issues;
  const param =
    first === undefined
      ? undefined
      : fieldName(first.code === 'unrecognized_keys' ? [...first.path, first.keys[0] ?? ''] : first.path);
  return new ApiError('invalid_request', 422, `Invalid request: ${parts.join('; ')}.`, {
    param: param === 'body' ? undefined : param,
  });
}

/** The 422 body used for path parameter failures: `{ detail: [{ loc, msg, type, ctx, input }] }`. */
export function uuidPathDetail(name: string, input: string) {
  return {
    detail: [
      {
        loc: ['path', name],
        msg: 'Input should be a valid UUID',
        type: 'uuid_parsing',
        ctx: { error: 'invalid UUID format' },
        input,
      },
    ],
  };
}

/** The 422 body of a path parameter failure. */
export const ValidationDetailSchema = z.strictObject({
  detail: z.array(
    z.strictObject({
      loc: z.array(z.union([z.string(), z.number().int()])),
      msg: z.string(),
      type: z.string(),
      ctx: z.record(z.string(), z.unknown()),
      input: z.unknown(),
    }),
  ),
});
