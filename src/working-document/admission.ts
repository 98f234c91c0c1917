// Where a working document may be submitted (decisions.md, "Flattened and misdirected working documents"):
// never to create a review (it answers an
// existing one); to add documents only for its own review, and only while it still has its fields.
import type { SecretRing } from '../secrets/ring.js';
import type { WorkingDocumentCheck } from '../ingest/package.js';
import { IngestRejection } from '../ingest/rejection.js';
import { inspectWorkingDocument, WORKING_DOCUMENT_MAX_BYTES } from './marker.js';

export type SubmissionTarget = { kind: 'create' } | { kind: 'add'; reviewId: string };

export function workingDocumentCheck(secret: SecretRing<string>, target: SubmissionTarget): WorkingDocumentCheck {
  return {
    maxBytes: WORKING_DOCUMENT_MAX_BYTES,
    inspect: (pdf) => inspectWorkingDocument(pdf, secret),
    admit: ({ filename, workingDocument }) => {
      if (target.kind === 'create') {
        throw new IngestRejection(
          'working_doc_not_review_input',
          `${filename} is a working document issued by this service: it answers an existing review. ` +
            `Send it to POST /reviews/{review_id}/documents of that review.`,
        );
      }
      if (workingDocument.reviewId !== target.reviewId) {
        throw new IngestRejection(
          'invalid_request',
          `Invalid request: documents: ${filename} is the working document of a different review.`,
          'documents',
        );
      }
      if (workingDocument.fieldCount === 0) {
        throw new IngestRejection(
          'working_doc_flattened',
          `${filename} is this review's working document but has lost its fillable fields ` +
            `(flattened, printed or scanned); upload the original PDF with its fields.`,
        );
      }
    },
  };
}
