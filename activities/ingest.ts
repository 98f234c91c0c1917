// Ingest for the review workflow: fetch signed source URLs and unpack staged uploads into documents (a
// thin adapter over src/ingest/). A refusal is returned, with its API error code, and logged in one line.
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { documentInventory } from '../src/db/documents.js';
import { unpackSubmission, type StagedFile, type UnpackOptions } from '../src/ingest/package.js';
import { saveIngestedSubmission, type IngestedSubmission } from '../src/db/submissions.js';
import { allDocumentsDuplicate, IngestRejection } from '../src/ingest/rejection.js';
import { fetchSources } from '../src/ingest/source-url.js';
import { workingDocumentCheck, type SubmissionTarget } from '../src/working-document/admission.js';
import { isRefused, type Refused } from '../src/reviews/pipeline.js';
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
  /** The API request this submission came with (X-Request-Id), for the log. */
  requestId?: string;
}

/** The submission as stored (src/db/submissions.ts): the recording activity reads it by this id. */
export interface IngestSubmissionResult {
  submissionId: string;
}

/**
 * Fetches a submission's sources and unpacks every file into documents under temporary keys: the
 * submission itself, or its refusal. (Shared by the ingest activity, which stores it for the recording
 * activity, and by the create that ingests and records in one go: review-record.ts.)
 */
export function submissionIngester({ sql, storage, config }: { sql: Sql; storage: Storage; config: Config }) {
  return async (input: IngestSubmissionInput): Promise<IngestedSubmission | Refused> => {
    let fetched: StagedFile[] = [];
    try {
      const options: UnpackOptions = {
        storage,
        reviewId: input.reviewId,
        limits: config.limits,
        workingDocuments: workingDocumentCheck(config.secrets.serverAccepted, input.target),
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
        maxReviewBytes: config.limits.maxReviewBytes,
        timeoutMs: config.limits.sourceFetchTimeoutMs,
        allowLoopback: config.testOnlyAllowLoopbackTargets,
      });
      const files = [...input.files, ...fetched];
      const { documents } = await unpackSubmission(files, options);
      if (documents.length === 0) {
        throw allDocumentsDuplicate();
      }
      return { documents, staged: files.map((f) => f.key) };
    } catch (err) {
      // Fetched sources are fetched again by a retry; uploads are kept for it unless the refusal is final.
      const uploads = err instanceof IngestRejection ? input.files.map((f) => f.key) : [];
      await removeObjects(storage, [...fetched.map((f) => f.key), ...uploads]).catch(() => {});
      if (!(err instanceof IngestRejection)) throw err;
      const what = input.target.kind === 'create' ? 'the create' : 'adding documents';
      return refuse({ requestId: input.requestId, what, reviewId: input.reviewId, code: err.code, message: err.message });
    }
  };
}

export function createIngestActivities(deps: { sql: Sql; storage: Storage; config: Config }) {
  const ingested = submissionIngester(deps);
  return {
    async ingestSubmission(input: IngestSubmissionInput): Promise<IngestSubmissionResult | Refused> {
      const submission = await ingested(input);
      if (isRefused(submission)) return submission;
      return { submissionId: await saveIngestedSubmission(deps.sql, input.reviewId, submission) };
    },
  };
}
