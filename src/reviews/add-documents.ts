// The Add-documents result of the interface specification (response of POST /reviews/{id}/documents),
// and the request body in its JSON form.
import { z } from '../openapi/zod.js';
import { DocumentSourcesSchema, REVIEW_STATUSES } from './review.js';

export const DISPOSITION_DECISIONS = ['cleared', 'disputed', 'cure_attached'] as const;
/** What a disposition reports for a decision field holding none of the choices (its detail quotes the value). */
export const UNRECOGNISED_DECISION = 'unrecognised';
export const DISPOSITION_OUTCOMES = ['applied', 'skipped', 'failed'] as const;

export const DispositionSchema = z
  .strictObject({
    finding: z.string().describe('Rule code of the finding, e.g. `APR-001`.'),
    finding_id: z
      .string()
      .describe(
        "The finding's `id` in the Report (`DOC-001:urla`): which of several findings of one code " +
          'the decision is on. For a field the working document names but no finding of its release has, the ' +
          'id that field names.',
      ),
    decision: z
      .enum([...DISPOSITION_DECISIONS, UNRECOGNISED_DECISION])
      .describe(
        '`cleared`, `disputed` or `cure_attached`; `unrecognised` for a value that is none of them ' +
          '(outcome `failed`, the value quoted in `detail`).',
      ),
    outcome: z.enum(DISPOSITION_OUTCOMES),
    detail: z.string().describe('Why, in plain words.'),
  })
  .openapi('Disposition');
export type Disposition = z.infer<typeof DispositionSchema>;

export const AddDocumentsResultSchema = z
  .strictObject({
    review_id: z.uuid(),
    status: z.enum(REVIEW_STATUSES),
    documents_ingested: z
      .number()
      .int()
      .min(0)
      .describe('New evidence documents added; the working document itself is excluded.'),
    dispositions: z.array(DispositionSchema),
    dispositions_applied: z.number().int().min(0),
    dispositions_failed: z.number().int().min(0),
    dispositions_skipped: z.number().int().min(0),
  })
  .openapi('AddDocumentsResult');
export type AddDocumentsResult = z.infer<typeof AddDocumentsResultSchema>;

/** JSON body: only `documents` (signed source URLs), exactly as in create. */
export const AddDocumentsJsonSchema = z
  .strictObject({
    documents: DocumentSourcesSchema,
  })
  .openapi('AddDocumentsRequest');
