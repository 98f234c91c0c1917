// Ingest for the review workflow: fetch signed source URLs and unpack staged uploads into documents (a
// thin adapter over src/ingest/). A refusal is returned, with its API error code, and logged in one line.
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { documentInventory } from '../src/db/documents.js';
import { unpackSubmission, type StagedFile, type UnpackOptions } from '../src/ingest/package.js';
import { saveIngestedSubmission } from '../src/db/submissions.js';
import { allDocumentsDuplicate, IngestRejection } from '../src/ingest/rejection.js';
import { fetchSources } from '../src/ingest/source-url.js';
import { workingDocumentCheck, type SubmissionTarget } from '../src/working-document/admission.js';
import type { Refused } from '../src/reviews/pipeline.js';
import type { DocumentSource } from '../src/reviews/review.js';
import { removeObjects, type Storage } from '../src/storage/minio.js';
import { refuse } from './refusal.js';

export interface IngestSubmissionInput {
  reviewId: string;
  /** A new review's first documents, or documents added to an existing review. */
  target: SubmissionTarget;
  /** Uploads the API streamed to staging. */
  files: StagedFile[];
  /** Signed URLs to fetch into staging first. */
  sources: DocumentSource[];
  /** The API request this submission came with (X-Request-Id), for the log; absent in runs from before. */
  requestId?: string;
}

/** The submission as stored (src/db/submissions.ts): the recording activity reads it by this id. */
export interface IngestSubmissionResult {
  submissionId: string;
}

export function createIngestActivities({ sql, storage, config }: { sql: Sql; storage: Storage; config: Config }) {
  return {
    async ingestSubmission(input: IngestSubmissionInput): Promise<IngestSubmissionResult | Refused> {
      let fetched: StagedFile[] = [];
      try {
        const options: UnpackOptions = {
          storage,
          reviewId: input.reviewId,
          limits: config.limits,
          workingDocuments: workingDocumentCheck(config.secrets.server, input.target),
        };
        if (input.target.kind === 'add') {
          const held = await documentInventory(sql, input.reviewId);
          options.knownHashes = new Set(held.hashes);
          options.alreadyOnReview = { documents: held.documents, bytes: held.bytes };
        }
        fetched = await fetchSources(input.sources, {
          storage,
          reviewId: input.reviewId,
          maxFileBytes: config.limits.maxFileBytes,
          timeoutMs: config.limits.sourceFetchTimeoutMs,
          allowLoopback: config.testOnlyAllowLoopbackTargets,
        });
        const files = [...input.files, ...fetched];
        const { documents } = await unpackSubmission(files, options);
        if (documents.length === 0) {
          throw allDocumentsDuplicate();
        }
        return { submissionId: await saveIngestedSubmission(sql, input.reviewId, { documents, staged: files.map((f) => f.key) }) };
      } catch (err) {
        // Fetched sources are fetched again by a retry; uploads are kept for it unless the refusal is final.
        const uploads = err instanceof IngestRejection ? input.files.map((f) => f.key) : [];
        await removeObjects(storage, [...fetched.map((f) => f.key), ...uploads]).catch(() => {});
        if (!(err instanceof IngestRejection)) throw err;
        const what = input.target.kind === 'create' ? 'the create' : 'adding documents';
        return refuse({ requestId: input.requestId, what, reviewId: input.reviewId, code: err.code, message: err.message });
      }
    },
  };
}
