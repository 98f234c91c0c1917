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
>;

export class IngestRejection extends Error {
  override name = 'IngestRejection';
  constructor(
    readonly code: RejectionCode,
    message: string,
  ) {
    super(message);
  }
}
