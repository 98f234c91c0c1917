// The Review resource as the interface specification defines it, and the create request. One schema
// per resource: validation, response shaping and the OpenAPI document all use these.
import { storable, z } from '../openapi/zod.js';

export const REVIEW_STATUSES = ['queued', 'awaiting_documents', 'processing', 'completed', 'failed'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_TYPES = ['mortgage_v1'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];

// "No properties other than these appear": strict, so a stray field in a response is a test failure.
export const ReviewSchema = z
  .strictObject({
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
  })
  .openapi('Review');
export type Review = z.infer<typeof ReviewSchema>;

/** A document's file name, as a source URL's `filename` or a multipart file part's filename="…". */
export const FileNameSchema = storable(z.string().min(1).max(500));

export const DocumentSourceSchema = z
  .strictObject({
    filename: FileNameSchema,
    content_type: storable(z.string().min(1).max(255)),
    // Checked by the server beyond its shape (public HTTPS hosts only, interface "Source URL rules").
    url: storable(z.string().min(1).max(4000)).openapi({ format: 'uri', pattern: '^https://' }),
  })
  .openapi('DocumentSource');
export type DocumentSource = z.infer<typeof DocumentSourceSchema>;

export const MetadataSchema = z.record(storable(z.string()), storable(z.string()));

/**
 * The words a client's serialiser makes of a missing value: JavaScript's `FormData.append(name, null)`
 * sends `null` (and `undefined` likewise), and a multipart field cannot say null otherwise. Taken as a
 * reference they would file unrelated loans under one reference, the second refused as a duplicate.
 */
const NOT_A_REFERENCE = ['null', 'undefined'] as const;

/** `reference_id` in both create forms: the lender's own identifier of the loan, unique in the organization. */
export const ReferenceIdSchema = storable(z.string().max(255))
  .refine((v) => !(NOT_A_REFERENCE as readonly string[]).includes(v), {
    message:
      `must be your identifier of the loan, not ` +
      `${NOT_A_REFERENCE.map((w) => `"${w}"`).join(' or ')}: leave reference_id out when there is none`,
  })
  // Stated in words: Schemathesis 4.32.5 cannot generate a multipart body whose field carries `not`.
  .meta({
    description:
      `Your identifier of the loan, unique in your organization; not the words ` +
      `${NOT_A_REFERENCE.map((w) => `"${w}"`).join(' or ')}.`,
  });

/** The documents of a JSON request: at least one (none at all is `document_required`, see the routes). */
export const DocumentSourcesSchema = z.array(DocumentSourceSchema).min(1);

export const CreateReviewJsonSchema = z.strictObject({
  documents: DocumentSourcesSchema,
  label: storable(z.string().max(500)).nullable().optional(),
  metadata: MetadataSchema.nullable().optional(),
  reference_id: ReferenceIdSchema.nullable().optional(),
  review_type: z.enum(REVIEW_TYPES).optional(),
});
export type CreateReviewJson = z.infer<typeof CreateReviewJsonSchema>;

/** Multipart create: the same logical fields, `metadata` as a string holding a JSON object. */
export const CreateReviewMultipartFieldsSchema = z.strictObject({
  label: storable(z.string().max(500)).optional(),
  metadata: z.string().optional(),
  reference_id: ReferenceIdSchema.optional(),
  review_type: z.enum(REVIEW_TYPES).optional(),
});

/** An RFC 3339 instant with its offset (`Z` or `±hh:mm`), as `created_at` is written. */
const InstantSchema = z.iso
  .datetime({ offset: true })
  // The calendar (and PostgreSQL) has no year 0: 1 BC is followed by AD 1.
  .refine((v) => !v.startsWith('0000'), { message: 'there is no year 0000' });

/**
 * `GET /reviews`: a page, and the filters that narrow the list (each combinable with the others and with
 * the cursor, which keeps its place in the narrowed list when the same filters come with it).
 */
export const ReviewListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).optional().meta({ description: 'Opaque; from a previous `next_cursor`.' }),
  reference_id: ReferenceIdSchema.optional().meta({
    description: 'Only the review with this `reference_id` (at most one: it is unique in your organization).',
  }),
  status: z.enum(REVIEW_STATUSES).optional().meta({ description: 'Only reviews in this status now.' }),
  created_after: InstantSchema.optional().meta({
    description: 'Only reviews created strictly after this instant (RFC 3339, e.g. `2026-11-01T00:00:00Z`).',
  }),
  created_before: InstantSchema.optional().meta({
    description: 'Only reviews created strictly before this instant (RFC 3339).',
  }),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuerySchema>;
