// A submission ingested: signed source URLs fetched and staged uploads unpacked into documents under
// temporary keys, or its refusal with the interface's error code. Only the worker ingests, on the ingest
// queue: a create (src/reviews/create.ts) and added documents (activities/ingest.ts).
import type { Config } from '../config.js';
import type { Sql } from '../db/client.js';
import { documentInventory } from '../db/documents.js';
import type { IngestedSubmission } from '../db/submissions.js';
import type { Refused } from '../reviews/pipeline.js';
import type { DocumentSource } from '../reviews/review.js';
import type { Logger } from '../telemetry/logger.js';
import { removeObjects, type Storage } from '../storage/minio.js';
import { workingDocumentCheck, type SubmissionTarget } from '../working-document/admission.js';
import { unpackSubmission, type UnpackOptions } from './package.js';
import type { StagedFile } from '../reviews/staged-file.js';
import { allDocumentsDuplicate, IngestRejection } from './rejection.js';
import { fetchSources } from './source-url.js';

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

/** Which process logs a refusal: the API (a create it ingests itself) or the worker. */
/**
 * A submission's refusal: returned (an answer for the integrator, not a failure) and logged under the id of
 * the request it answers, by its code alone: its message names the caller's files, which are often named
 * after the borrower.
 */
export function refuse(o: {
  log: Logger;
  requestId?: string | undefined;
  what: string;
  reviewId: string;
  code: string;
  message: string;
  param?: string | undefined;
}): Refused {
  o.log.info(`${o.what} refused: ${o.code}`, { request_id: o.requestId, review_id: o.reviewId, code: o.code });
  return { refused: { code: o.code, message: o.message, ...(o.param !== undefined ? { param: o.param } : {}) } };
}

/** What ingesting needs: the database, the store, the limits and secrets, and the process that ingests. */
export interface IngestingDeps {
  sql: Sql;
  storage: Storage;
  config: Config;
  /** Where refusals are logged: the request's log in the API, the activity's in a worker. */
  log: Logger;
}

/** Fetches a submission's sources and unpacks every file into documents: the submission, or its refusal. */
export function submissionIngester({ sql, storage, config, log }: IngestingDeps) {
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
        idleMs: config.limits.sourceFetchIdleMs,
        totalMs: config.limits.sourceFetchTotalMs,
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
      return refuse({
        log,
        requestId: input.requestId,
        what,
        reviewId: input.reviewId,
        code: err.code,
        message: err.message,
        param: err.param,
      });
    }
  };
}
