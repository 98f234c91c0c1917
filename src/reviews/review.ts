// The Review resource as the interface specification defines it, and the create request. One schema
// per resource: validation, response shaping and the OpenAPI document all use these.
import { storable, z } from '../openapi/zod.js';

export const REVIEW_STATUSES = ['queued', 'awaiting_documents', 'processing', 'completed', 'failed'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_TYPES = ['mortgage_v1'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];

// "No properties other than these appear": strict, so a stray field in a response is a test failure.
export const ReviewSchema = z.strictObject({
  review_id: z.uuid(),
  status: z.enum(REVIEW_STATUSES),
  review_type: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  document_count: z.number().int().min(0),
  label: z.string().nullable(),
  reference_id: z.string().nullable(),
  report_available: z.boolean(),
  sandbox: z.boolean(),
}).openapi('Review');
export type Review = z.infer<typeof ReviewSchema>;

export const DocumentSourceSchema = z.strictObject({
  filename: storable(z.string().min(1).max(500)),
  content_type: storable(z.string().min(1).max(255)),
  // Checked by the server beyond its shape (public HTTPS hosts only, interface "Source URL rules").
  url: storable(z.string().min(1).max(4000)).openapi({ format: 'uri', pattern: '^https://' }),
}).openapi('DocumentSource');
export type DocumentSource = z.infer<typeof DocumentSourceSchema>;

export const MetadataSchema = z.record(storable(z.string()), storable(z.string()));

/** The documents of a JSON request: at least one (none at all is `document_required`, see the routes). */
export const DocumentSourcesSchema = z.array(DocumentSourceSchema).min(1);

export const CreateReviewJsonSchema = z.strictObject({
  documents: DocumentSourcesSchema,
  label: storable(z.string().max(500)).nullable().optional(),
  metadata: MetadataSchema.nullable().optional(),
  reference_id: storable(z.string().max(255)).nullable().optional(),
  review_type: z.enum(REVIEW_TYPES).optional(),
});
export type CreateReviewJson = z.infer<typeof CreateReviewJsonSchema>;

/** Multipart create: the same logical fields, `metadata` as a string holding a JSON object. */
export const CreateReviewMultipartFieldsSchema = z.strictObject({
  label: storable(z.string().max(500)).optional(),
  metadata: z.string().optional(),
  reference_id: storable(z.string().max(255)).optional(),
  review_type: z.enum(REVIEW_TYPES).optional(),
});
