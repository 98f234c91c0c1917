// A submission ingested: signed source URLs fetched and staged uploads unpacked into documents under
// temporary keys, or its refusal with the interface's error code. The API ingests a small create itself
// (src/reviews/create.ts); the worker ingests everything else (activities/ingest.ts).
import type { Config } from '../config.js';
import type { Sql } from '../db/client.js';
import { documentInventory } from '../db/documents.js';
import type { IngestedSubmission } from '../db/submissions.js';
import type { Refused } from '../reviews/pipeline.js';
import type { DocumentSource } from '../reviews/review.js';
import { oneLine } from '../runtime/log-line.js';
import { removeObjects, type Storage } from '../storage/minio.js';
import { workingDocumentCheck, type SubmissionTarget } from '../working-document/admission.js';
import { unpackSubmission, type StagedFile, type UnpackOptions } from './package.js';
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
export type IngestingProcess = 'api' | 'worker';

/**
 * A submission's refusal: returned (an answer for the integrator, not a failure) and logged in one line
 * under the id of the request it answers.
 */
export function refuse(o: {
  by: IngestingProcess;
  requestId?: string | undefined;
  what: string;
  reviewId: string;
  code: string;
  message: string;
}): Refused {
  // The message names the caller's files: kept to one line whatever their names hold.
  console.log(
    oneLine(
      `${o.by}: [${o.requestId ?? 'no request id'}] ${o.what} of review ${o.reviewId} refused: ${o.code}: ${o.message}`,
    ),
  );
  return { refused: { code: o.code, message: o.message } };
}

/** What ingesting needs: the database, the store, the limits and secrets, and the process that ingests. */
export interface IngestingDeps {
  sql: Sql;
  storage: Storage;
  config: Config;
  by: IngestingProcess;
}

/** Fetches a submission's sources and unpacks every file into documents: the submission, or its refusal. */
export function submissionIngester({ sql, storage, config, by }: IngestingDeps) {
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
      return refuse({
        by,
        requestId: input.requestId,
        what,
        reviewId: input.reviewId,
        code: err.code,
        message: err.message,
      });
    }
  };
}
