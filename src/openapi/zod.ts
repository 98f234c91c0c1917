// zod with zod-to-openapi's `.openapi()` installed. zod 4 copies methods onto each schema when it is
// built, so the extension must exist before any resource schema is created: every module that defines a
// schema published in the OpenAPI document imports `z` from here.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { isStorableText, UNSTORABLE_MESSAGE } from '../db/text.js';

extendZodWithOpenApi(z);

export { z };

/** A request's text field that is stored: refused, naming the field, when the database could not hold it. */
export function storable<T extends z.ZodString>(schema: T) {
  // The document states the NUL half of the rule as a pattern; an unpaired surrogate has no JSON Schema form.
  return schema.refine(isStorableText, { message: UNSTORABLE_MESSAGE }).meta({ pattern: '^[^\\u0000]*$' });
}
