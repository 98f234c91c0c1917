// Every response the suite receives from /v1 is checked against the served OpenAPI document: a
// documented operation and status, and a body valid under its schema. An undocumented operation (unknown
// route, wrong method) must still answer with the documented error envelope.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

// ajv-formats is CommonJS; under ESM its function sits on `default`.
type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp }[];

  constructor(private readonly doc: Document) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'components', components: doc.components as unknown as Json } as object);
    // Literal paths before templated ones, so /reviews never matches /reviews/{review_id}'s pattern first.
    this.templates = Object.keys(doc.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
  }

  private compile(key: string, schema: Json): ValidateFunction {
    let fn = this.cache.get(key);
    if (!fn) {
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"components#/components/'),
      ) as object;
      fn = this.ajv.compile(rebased);
      this.cache.set(key, fn);
    }
    return fn;
  }

  /** Throws with a readable reason when the response does not match the document. */
  check(method: string, path: string, status: number, text: string): void {
    const where = `${method} ${path} → ${status}`;
    const match = this.templates.find((t) => t.pattern.test(path));
    const operation = match && this.doc.paths[match.template]![method.toLowerCase()];
    let schema: Json | undefined;
    let key: string;
    if (!operation) {
      if (status < 400) throw new Error(`${where}: a success from an operation the document does not describe`);
      schema = { $ref: '#/components/schemas/Error' };
      key = 'error-envelope';
    } else {
      const response = operation.responses[String(status)] ?? operation.responses.default;
      if (!response) throw new Error(`${where}: status not documented for ${match!.template}`);
      schema = response.content?.['application/json']?.schema;
      key = `${method} ${match!.template} ${status}`;
      if (schema === undefined) {
        if (text !== '') throw new Error(`${where}: documented without a body, but one was sent`);
        return;
      }
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${where}: body is not JSON: ${text.slice(0, 200)}`);
    }
    const validate = this.compile(key, schema);
    if (!validate(body)) {
      throw new Error(
        `${where}: body does not match the document: ${this.ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`,
      );
    }
  }

  /** Throws with a readable reason when `value` is not valid under the document's schema `name`. */
  checkSchema(name: string, value: unknown): void {
    const validate = this.compile(`schema ${name}`, { $ref: `#/components/schemas/${name}` });
    if (!validate(value)) throw new Error(`${name}: ${this.ajv.errorsText(validate.errors)}`);
  }
}

let shared: Promise<OpenApiValidator> | undefined;
export function documentValidator(apiRoot: string): Promise<OpenApiValidator> {
  shared ??= fetch(`${apiRoot}/v1/openapi.json`)
    .then((r) => r.json())
    .then((doc) => new OpenApiValidator(doc as Document));
  return shared;
}
