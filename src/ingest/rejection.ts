// Why a submission is refused, in the interface's error codes (src/errors/catalog.ts). The message names
// the file, member or field.
import type { ErrorCode } from '../errors/catalog.js';

export type RejectionCode = Extract<
  ErrorCode,
  | 'invalid_request'
  | 'document_required'
  | 'document_unsupported'
  | 'document_too_large'
  | 'too_many_documents'
  | 'documents_too_large'
  | 'all_documents_duplicate'
  | 'working_doc_flattened'
  | 'working_doc_not_review_input'
  | 'review_not_found'
>;

export class IngestRejection extends Error {
  override name = 'IngestRejection';
  constructor(
    readonly code: RejectionCode,
    message: string,
    /** The request field refused (`documents[0].url`), when it is one field rather than the code's own. */
    readonly param?: string,
  ) {
    super(message);
  }
}

/**
 * Refuses what a review would hold past its per-review limits: its evidence documents and all its bytes.
 * Checked as a submission is unpacked and again as it is recorded (submissions ingested side by side).
 */
export function checkReviewLimits(
  held: { documents: number; bytes: number },
  limits: { maxReviewDocuments: number; maxReviewBytes: number },
): void {
  if (held.bytes > limits.maxReviewBytes)
    throw new IngestRejection('documents_too_large', 'The documents exceed the per-review size limit.');
  if (held.documents > limits.maxReviewDocuments)
    throw new IngestRejection('too_many_documents', `A review holds at most ${limits.maxReviewDocuments} documents.`);
}

/** A submission of nothing but documents the review already has. */
export function allDocumentsDuplicate(): IngestRejection {
  return new IngestRejection(
    'all_documents_duplicate',
    'Every submitted document is already on this review (same SHA-256); nothing was added.',
  );
}
