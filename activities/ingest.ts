// Ingest for the review workflow: unpack staged uploads into documents (a thin adapter over
// src/ingest/package.ts). Refusals become non-retryable failures typed with the API error code.
import { ApplicationFailure } from '@temporalio/activity';
import type { Config } from '../src/config.js';
import { unpackSubmission, type IngestedDocument, type StagedFile } from '../src/ingest/package.js';
import { IngestRejection } from '../src/ingest/rejection.js';
import { removeObjects, type Storage } from '../src/storage/minio.js';

export function createIngestActivities({ storage, config }: { storage: Storage; config: Config }) {
  return {
    async ingestSubmission(input: { reviewId: string; files: StagedFile[] }): Promise<IngestedDocument[]> {
      try {
        const result = await unpackSubmission(input.files, { storage, reviewId: input.reviewId, limits: config.limits });
        return result.documents;
      } catch (err) {
        if (err instanceof IngestRejection) {
          // A refused submission keeps nothing, the uploads included. (Retryable failures keep them for the retry.)
          await removeObjects(storage, input.files.map((f) => f.key)).catch(() => {});
          throw ApplicationFailure.nonRetryable(err.message, err.code);
        }
        throw err;
      }
    },
  };
}
