// Ingest for the review workflow: fetch signed source URLs and unpack staged uploads into documents (a
// thin adapter over src/ingest/). Refusals become non-retryable failures typed with the API error code.
import { ApplicationFailure } from '@temporalio/activity';
import type { Config } from '../src/config.js';
import { unpackSubmission, type IngestedDocument, type StagedFile } from '../src/ingest/package.js';
import { IngestRejection } from '../src/ingest/rejection.js';
import { fetchSources } from '../src/ingest/source-url.js';
import type { DocumentSource } from '../src/reviews/review.js';
import { removeObjects, type Storage } from '../src/storage/minio.js';

export interface IngestSubmissionInput {
  reviewId: string;
  /** Uploads the API streamed to staging. */
  files: StagedFile[];
  /** Signed URLs to fetch into staging first. */
  sources: DocumentSource[];
}

export interface IngestSubmissionResult {
  documents: IngestedDocument[];
  /** Distinct files offered, duplicates of the review's documents included. */
  offered: number;
  /** Every staging object the submission used (uploads and fetched sources), to remove once recorded. */
  staged: string[];
}

export function createIngestActivities({ storage, config }: { storage: Storage; config: Config }) {
  return {
    async ingestSubmission(input: IngestSubmissionInput): Promise<IngestSubmissionResult> {
      let fetched: StagedFile[] = [];
      try {
        fetched = await fetchSources(input.sources, {
          storage,
          reviewId: input.reviewId,
          maxFileBytes: config.limits.maxFileBytes,
          timeoutMs: config.limits.sourceFetchTimeoutMs,
          allowLoopback: config.testOnlyAllowLoopbackTargets,
        });
        const files = [...input.files, ...fetched];
        const result = await unpackSubmission(files, { storage, reviewId: input.reviewId, limits: config.limits });
        return { ...result, staged: files.map((f) => f.key) };
      } catch (err) {
        // Fetched sources are fetched again by a retry; uploads are kept for it unless the refusal is final.
        const uploads = err instanceof IngestRejection ? input.files.map((f) => f.key) : [];
        await removeObjects(storage, [...fetched.map((f) => f.key), ...uploads]).catch(() => {});
        if (err instanceof IngestRejection) throw ApplicationFailure.nonRetryable(err.message, err.code);
        throw err;
      }
    },
  };
}
