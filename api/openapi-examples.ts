// One realistic example per schema of the OpenAPI document: what Swagger UI and generated clients show
// a reader. One lender's refinance at each stage: its create, the review, the report of release 1 (the
// H-25(B) sample loan with a late Closing Disclosure and a missing URLA), the answer to its working
// document, a webhook endpoint and a delivery. test/integration/openapi.test.ts validates each against
// its schema, and the document refuses to build with a schema that has none.
const REVIEW_ID = '0193a7e2-5c1d-7b2a-9f4e-2d6c8b1a0e57';
const RELEASE_ID = '0193a7e4-08b3-7c41-a2d5-6f1e9c3b7a20';
const EVENT_ID = '6f0c1e52-8a7d-4b3e-9c21-5d4a3b2e1f90';
const ENDPOINT_ID = '3d9f2c71-0b8e-4a6d-95c4-7e21f0a8b3d6';

const documentSource = {
  filename: 'closing-disclosure.pdf',
  content_type: 'application/pdf',
  url:
    'https://files.lender.example/loans/LN-2026-04417/closing-disclosure.pdf' +
    '?X-Amz-Expires=900&X-Amz-Signature=5b2e9c1f7a3d',
};

const review = {
  review_id: REVIEW_ID,
  status: 'completed',
  review_type: 'mortgage_v1',
  created_at: '2026-11-23T07:58:12.114Z',
  updated_at: '2026-11-23T08:00:03.502Z',
  document_count: 7,
  label: 'Jones refinance, 12 Elm St',
  reference_id: 'LN-2026-04417',
  report_available: true,
  sandbox: false,
};

const evidence = { document: 'loan-file.pdf', page: 41, field: 'date_issued', value: '2026-11-19' };

const issues = [
  {
    id: 'TRD-002',
    code: 'TRD-002',
    severity: 'critical',
    category: 'compliance',
    title: 'Closing Disclosure waiting period',
    summary:
      'Closing Disclosure (loan-file.pdf, p.41) was received 2026-11-24 (issued 2026-11-19, mailbox ' +
      'rule of 3 specific business days), 1 specific business day before consummation on 2026-11-25 ' +
      '(Closing Date of Closing Disclosure (loan-file.pdf, p.41)); at least 3 are required (earliest ' +
      'consummation 2026-11-27).',
    evidence: [evidence, { document: 'loan-file.pdf', page: 41, field: 'closing_date', value: '2026-11-25' }],
    regulation: '12 CFR 1026.19(f)(1)(ii)',
  },
  {
    id: 'DOC-001:urla',
    code: 'DOC-001',
    severity: 'critical',
    category: 'documentation',
    title: 'Core document missing',
    summary: 'No loan application (URLA) was found among the 7 document(s) of the package.',
    evidence: [],
    regulation: null,
  },
];

const disposition = {
  finding: 'DOC-001',
  finding_id: 'DOC-001:urla',
  decision: 'disputed',
  outcome: 'applied',
  detail: 'DOC-001 is marked disputed; the next release goes through review before it is released.',
};

const webhookEndpoint = {
  id: ENDPOINT_ID,
  url: 'https://hooks.lender.example/loan-review',
  enabled: true,
  description: 'Production LOS listener',
  secret_hint: 'whsec_…q7Zc',
  created_at: '2026-11-02T14:20:00.000Z',
};

/** An event as its webhook carries it and GET /events lists it. */
const webhookPayload = {
  id: EVENT_ID,
  event: 'review.completed',
  review_id: REVIEW_ID,
  release_id: RELEASE_ID,
  reference_id: 'LN-2026-04417',
  status: 'completed',
  occurred_at: '2026-11-23T08:00:03.502Z',
};

const delivery = {
  event_id: EVENT_ID,
  event: 'review.completed',
  review_id: REVIEW_ID,
  release_id: RELEASE_ID,
  attempt: 1,
  status_code: 200,
  delivered: true,
  error: null,
  duration_ms: 184,
  attempted_at: '2026-11-23T08:00:04.011Z',
};

export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  Review: review,
  DocumentSource: documentSource,
  CreateReviewRequest: {
    documents: [
      documentSource,
      {
        filename: 'note.pdf',
        content_type: 'application/pdf',
        url: 'https://files.lender.example/loans/LN-2026-04417/note.pdf?X-Amz-Signature=9c1d04be6a2f',
      },
    ],
    label: 'Jones refinance, 12 Elm St',
    reference_id: 'LN-2026-04417',
    metadata: { branch: 'Denver', loan_officer: 'A. Patel' },
    review_type: 'mortgage_v1',
  },
  ReviewList: { data: [review], next_cursor: 'eyJjIjoiMjAyNi0xMS0yM1QwNzo1ODoxMi4xMTRaIiwiaSI6IjAxOTNhN2UyIn0.kq3Vb8' },
  Report: {
    review_id: REVIEW_ID,
    status: 'completed',
    outcome: 'issues_found',
    summary: { total: 2, critical: 2, high: 0, medium: 0, low: 0, info: 0 },
    issues,
    report_pdf_url:
      `https://files.review.example/reports/${REVIEW_ID}/${RELEASE_ID}.pdf` +
      '?X-Amz-Expires=300&X-Amz-Signature=e41f8b2c6d07',
    report_pdf_expires_at: '2026-11-23T08:05:03.502Z',
    sandbox: false,
    generated_at: '2026-11-23T08:00:03.502Z',
  },
  Summary: { total: 2, critical: 2, high: 0, medium: 0, low: 0, info: 0 },
  Issue: issues[0],
  Evidence: evidence,
  AddDocumentsRequest: {
    documents: [
      {
        filename: 'urla.pdf',
        content_type: 'application/pdf',
        url: 'https://files.lender.example/loans/LN-2026-04417/urla.pdf?X-Amz-Signature=77ab3e5d9c10',
      },
    ],
  },
  AddDocumentsResult: {
    review_id: REVIEW_ID,
    status: 'processing',
    documents_ingested: 1,
    dispositions: [disposition],
    dispositions_applied: 1,
    dispositions_failed: 0,
    dispositions_skipped: 0,
  },
  Disposition: disposition,
  WebhookEndpoint: webhookEndpoint,
  RegisteredWebhookEndpoint: { ...webhookEndpoint, signing_secret: 'whsec_4Jt9Vx2Lm8Qa5Rw1Ns7Kd3Pf6Hy0q7Zc' },
  RotatedWebhookEndpoint: {
    ...webhookEndpoint,
    secret_hint: 'whsec_…8Rk2',
    signing_secret: 'whsec_9Ud2Wm5Tq1Zb7Xe3Lc8Gj4Hn6Pv0s8Rk2',
    previous_secret_expires_at: '2026-11-24T08:00:00.000Z',
  },
  RotateWebhookSecret: { previous_secret_overlap_seconds: 86_400 },
  WebhookEndpointList: { endpoints: [webhookEndpoint] },
  ResendEventRequest: { event_id: EVENT_ID },
  ResendAccepted: { endpoint_id: ENDPOINT_ID, event_id: EVENT_ID },
  EventList: { data: [webhookPayload], next_cursor: null },
  WebhookDelivery: delivery,
  WebhookDeliveryList: {
    deliveries: [
      delivery,
      {
        ...delivery,
        attempt: 1,
        status_code: 503,
        delivered: false,
        error: 'HTTP 503',
        duration_ms: 2_040,
        event_id: 'c3b1a9e0-4d2f-4e8a-8b7c-1a2b3c4d5e6f',
        attempted_at: '2026-11-20T16:41:55.300Z',
      },
    ],
  },
  RegisterWebhookEndpointRequest: {
    url: 'https://hooks.lender.example/loan-review',
    description: 'Production LOS listener',
  },
  WebhookPayload: webhookPayload,
  Error: { error: { code: 'review_not_found', message: 'No review with that id in your organization.' } },
  ValidationDetail: {
    detail: [
      {
        loc: ['path', 'review_id'],
        msg: 'Input should be a valid UUID',
        type: 'uuid_parsing',
        ctx: {},
        input: 'LN-2026-04417',
      },
    ],
  },
};

/** The document's tags: one per resource, in the order a reader meets them. */
export const TAGS = [
  {
    name: 'Reviews',
    description: 'Create a review from a loan package, follow it, add documents or a filled working document.',
  },
  {
    name: 'Reports',
    description: 'The released report of a review: outcome, issues with their evidence, and the PDF.',
  },
  {
    name: 'Webhook endpoints',
    description: "Where the organization's events are delivered, and what each delivery attempt got back.",
  },
  { name: 'Webhooks', description: 'The events the service sends to registered endpoints.' },
  {
    name: 'Events',
    description: 'Every event announced, as its webhook carried it: reconcile what a receiver missed, send one again.',
  },
] as const;
export type Tag = (typeof TAGS)[number]['name'];
