// Why an upload is refused, in the interface's error codes. The message names the file or member.
export type RejectionCode =
  | 'document_required'
  | 'document_unsupported'
  | 'document_too_large'
  | 'too_many_documents'
  | 'documents_too_large';

export class IngestRejection extends Error {
  override name = 'IngestRejection';
  constructor(
    readonly code: RejectionCode,
    message: string,
  ) {
    super(message);
  }
}
