// The one catalog of the interface's error codes: each code's HTTP status (or statuses) and when it is
// answered. The API answers with it, ingest and the workflow refuse with its codes, the OpenAPI document
// states its codes as the closed set, and docs/api.md's error table is generated from it
// (npm run docs:generate; test/unit/docs.test.ts keeps the two equal).

interface ErrorSpec {
  /** The HTTP status; several when the situation decides (the `when` text says which is which). */
  readonly status: number | readonly number[];
  /** When a caller gets it, and what to do: the text of the documentation's error table. */
  readonly when: string;
  /** Whether, and how, a client retries the same request: the table's "retry?" column. */
  readonly retry: string;
  /** The request field an answer with this code names in `param`, unless the answer names another. */
  readonly param?: string;
}

export const ERROR_CATALOG = {
  missing_api_key: { status: 401, when: 'no key sent', retry: 'no: send a key' },
  invalid_api_key: {
    status: 401,
    when:
      'unknown, revoked or expired key; malformed `Authorization`; `Authorization` and ' +
      '`X-Api-Key` both sent and different',
    retry: 'no: use a valid key',
  },
  org_unbound: {
    status: 403,
    when: 'a valid key bound to no organization',
    retry: 'no: the key needs an organization (ask your operator)',
  },
  auth_unavailable: {
    status: 503,
    when: 'the key store cannot be reached, or did not answer within 9 s; honour `Retry-After`',
    retry: 'yes, after `Retry-After`, with backoff',
  },
  service_unavailable: {
    status: 503,
    when:
      'a server behind the API (Postgres, the object store, Temporal) did not answer within 9 s, or no ' +
      "worker took a create within 9 s (receiving a body does not count; nor does ingest once the review's " +
      'workflow has taken the create: fetching source URLs and unpacking run under their own limits). A ' +
      'create answered so never becomes a review and keeps nothing (added documents answered so are never ' +
      'added): its workflow refuses it once past the time the API waited. Honour `Retry-After`; logged ' +
      'under the `X-Request-Id` it carries; retry a create with the same `Idempotency-Key` (it is given ' +
      'the same review id)',
    retry:
      'yes, after `Retry-After`, with backoff; a create with the same `Idempotency-Key`; added documents answered so were not added: send them again',
  },
  review_not_found: {
    status: 404,
    when:
      "no such review in your organization (another organization's review looks the same); for " +
      "reports, added documents and deletion, also a review of the other mode than your key's",
    retry: 'no',
  },
  report_not_ready: {
    status: [404, 409],
    when:
      '404: the review has not finished (stop polling only on `completed` or `failed`); 409: ' +
      'released, but its PDF is unavailable',
    retry: '404: poll again later (or wait for the webhook); 409: yes, with backoff',
  },
  review_failed: {
    status: 422,
    when: 'the review failed: no report will ever exist, and documents can no longer be added',
    retry: 'no',
  },
  document_required: {
    status: 400,
    when: 'no document supplied, or a file (or package member) is empty',
    retry: 'no: fix the request',
    param: 'documents',
  },
  document_unsupported: {
    status: 400,
    when:
      'a file, package or package member of an unsupported type, or an unsafe package (links, ' +
      'devices, paths leaving the package, nested or encrypted archives)',
    retry: 'no: fix the request',
    param: 'documents',
  },
  document_too_large: {
    status: 413,
    when: 'a single file or package member over the per-file limit',
    retry: 'no: fix the request',
    param: 'documents',
  },
  too_many_documents: {
    status: 422,
    when: 'more documents than a review may hold, after unpacking',
    retry: 'no: fix the request',
    param: 'documents',
  },
  documents_too_large: {
    status: 422,
    when: 'over the per-review size limit, or a package expanding past 10 × its size',
    retry: 'no: fix the request',
    param: 'documents',
  },
  invalid_request: {
    status: [400, 408, 414, 422, 431],
    when:
      '400: the body is not JSON or multipart, `metadata` is malformed (also a key or value holding ' +
      'a NUL or an unpaired surrogate), a webhook `url` is refused, or the request is not well-formed ' +
      'HTTP/1.1 (its framing, a header, the request line); ' +
      '408: the request body stalled (no byte for 30 s, or under 30 KiB in any 30 s); 414: a URL ' +
      'over 8 KiB; 431: headers over 16 KiB; ' +
      '422: a field fails validation (the message names it, e.g. `documents[0].url`), a source URL ' +
      'is refused or cannot be fetched, an unknown field, a `review_type` other than `mortgage_v1`, ' +
      'a bad `limit` or `cursor`, text (a field, a file name) holding a NUL character or an unpaired ' +
      'surrogate, a JSON body over 1 MB',
    retry: '408: yes, sending the body without stalling; otherwise no: fix the request',
  },
  duplicate_reference_id: {
    status: 409,
    when: '`reference_id` already used in your organization',
    retry: 'no: the review named in the message holds the reference',
    param: 'reference_id',
  },
  all_documents_duplicate: {
    status: 409,
    when: 'adding documents: every file is already on the review',
    retry: 'no: the documents are already on the review',
    param: 'documents',
  },
  working_doc_not_review_input: {
    status: 422,
    when: 'a working document (a report of ours) sent to create a review',
    retry: 'no: add it to its review instead',
    param: 'documents',
  },
  working_doc_flattened: {
    status: 422,
    when: "adding documents: the review's working document without its form fields",
    retry: 'no: send the filled report with its form fields',
    param: 'documents',
  },
  rate_limited: {
    status: 429,
    when: "over the organization's rate limit; honour `Retry-After`",
    retry: 'yes, after `Retry-After`',
  },
  webhook_endpoint_not_found: {
    status: 404,
    when: 'no such webhook endpoint under your organization and mode',
    retry: 'no',
  },
  not_found: { status: 404, when: 'no such route', retry: 'no' },
  method_not_allowed: {
    status: 405,
    when: 'the route exists, not with this method; `Allow` lists those it has',
    retry: 'no',
  },
  internal_error: {
    status: 500,
    when: 'unexpected; logged under the `X-Request-Id` it carries; the message holds no internals',
    retry: 'yes, with backoff (a create with the same `Idempotency-Key`); report the `X-Request-Id` if it persists',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Every code, in the catalog's order (the OpenAPI enum). */
export const ERROR_CODES = Object.keys(ERROR_CATALOG) as [ErrorCode, ...ErrorCode[]];

/** Codes answered with one status whatever the situation. */
export type FixedStatusCode = {
  [C in ErrorCode]: (typeof ERROR_CATALOG)[C]['status'] extends number ? C : never;
}[ErrorCode];

/** The statuses a code may be answered with. */
export type StatusOf<C extends ErrorCode> = (typeof ERROR_CATALOG)[C]['status'] extends infer S
  ? S extends readonly number[]
    ? S[number]
    : S
  : never;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOG, value);
}

/** The status of a code that has only one. */
export function statusOf<C extends FixedStatusCode>(code: C): StatusOf<C> {
  return ERROR_CATALOG[code].status as StatusOf<C>;
}

/** Where docs/api.md holds the generated table. */
export const ERROR_TABLE_MARKERS = {
  start: '<!-- error-catalog:start (generated by npm run docs:generate) -->',
  end: '<!-- error-catalog:end -->',
} as const;

/** The documentation's error table. */
export function errorTableMarkdown(): string {
  const rows = Object.entries(ERROR_CATALOG).map(([code, spec]: [string, ErrorSpec]) => {
    const status = typeof spec.status === 'number' ? String(spec.status) : spec.status.join(' / ');
    const param = spec.param === undefined ? '' : `\`${spec.param}\``;
    return `| \`${code}\` | ${status} | ${spec.when} | ${spec.retry} | ${param} |`;
  });
  return ['| code | status | when | retry? | `param` |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The field an answer with `code` names, unless it names another. */
export function paramOf(code: ErrorCode): string | undefined {
  const spec: ErrorSpec = ERROR_CATALOG[code];
  return spec.param;
}
