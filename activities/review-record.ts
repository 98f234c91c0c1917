// Read-model writes for the review workflow: thin adapters over src/db.
import { contextLog } from './context-log.js';
import { heartbeating } from './heartbeat.js';
import { workerMetrics } from '../src/telemetry/worker-metrics.js';
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { recordTransition } from '../src/db/reviews.js';
import { addDocuments } from '../src/db/documents.js';
import { recordDispositions, type DecisionSender } from '../src/db/dispositions.js';
import { currentRelease, getRelease } from '../src/db/releases.js';
import { commitDocuments } from '../src/ingest/package.js';
import { refuse } from '../src/ingest/submission.js';
import { reviewCreation, unkept } from '../src/reviews/create.js';
import { ingestedSubmission } from '../src/db/submissions.js';
import type { IngestSubmissionResult } from './ingest.js';
import { readWorkingDocumentFields } from '../src/working-document/marker.js';
import type { Disposition } from '../src/reviews/add-documents.js';
import { judgeDispositions } from '../src/working-document/decisions.js';
import { readBuffer, removeObjects, type Storage } from '../src/storage/minio.js';
import { isRefused, type PassBegun, type Refused } from '../src/reviews/pipeline.js';
import { beginPass } from '../src/reviews/pass.js';
import { allDocumentsDuplicate, IngestRejection, type RejectionCode } from '../src/ingest/rejection.js';
import { UPLOADS_PREFIX } from '../src/storage/keys.js';
import type { Review, ReviewStatus } from '../src/reviews/review.js';
import type { CreateReviewRequest, ReviewWorkflowInput } from '../workflows/messages.js';
import type { InternalState } from '../src/reviews/states.js';

/** A create as its workflow hands it over: the review to record and the submission to ingest for it. */
export type CreateReviewInput = ReviewWorkflowInput &
  Omit<CreateReviewRequest, 'acceptBy'> & {
    status: ReviewStatus;
    internalState: InternalState;
  };

/**
 * A review recorded: the Review the create answers, and its pipeline's first pass begun (null for a
 * sandbox review, which never enters the pipeline).
 */
export interface CreatedReview {
  review: Review;
  pass: PassBegun | null;
}

export interface RecordedSubmission {
  evidenceAdded: number;
  /** Working documents of this submission, by their stored object (their decisions are read next). */
  workingDocuments: { objectKey: string; releaseId: string }[];
  /** File names of every document of the submission: a cure document is named by one of them. */
  filenames: string[];
}

export function createReviewActivities({ sql, storage, config }: { sql: Sql; storage: Storage; config: Config }) {
  const create = reviewCreation({ sql, storage, config, log: contextLog });

  return {
    /**
     * Ingests a create's uploads and source URLs and records the review with them (on the ingest queue),
     * its pipeline's first pass begun. A retry once the review is recorded answers it as recorded,
     * ingesting nothing again (its first pass is begun from where the attempt before left it).
     */
    async createReview({ files, sources, ...input }: CreateReviewInput): Promise<CreatedReview | Refused> {
      const recorded = await heartbeating(() => create(input, { files, sources }));
      if (isRefused(recorded)) return recorded;
      // A sandbox review never enters the pipeline.
      if (input.sandbox) return { review: recorded.review, pass: null };
      const pass = await beginPass(
        sql,
        config.limits,
        {
          reviewId: input.reviewId,
          organizationId: input.organizationId,
          working: 'analysing',
          current: recorded.internalState,
        },
        (waited) => workerMetrics.analysisSlotWait.observe(waited),
      );
      return { review: recorded.review, pass };
    },

    /** Removes the uploads of a create its workflow refused unread (it came after its accept time). */
    async discardUploads(keys: string[]): Promise<void> {
      await removeObjects(
        storage,
        keys.filter((k) => k.startsWith(UPLOADS_PREFIX)),
      );
    },

    /**
     * Adds documents to an existing review: final keys first, then the rows and the count in one
     * transaction, the review's limits checked on what it then holds. Submissions to one review are
     * ingested side by side: one whose every document another has just added is all_documents_duplicate,
     * and one that would take the review past a limit is refused; either keeps nothing.
     */
    async recordAddedDocuments(
      input: { reviewId: string; requestId?: string } & IngestSubmissionResult,
    ): Promise<RecordedSubmission | Refused> {
      const { documents, staged } = await ingestedSubmission(sql, input.reviewId, input.submissionId);
      const keys = await commitDocuments(storage, documents);
      const rows = documents.map((d, i) => ({ ...d, objectKey: keys[i]! }));
      // Objects of this submission alone (an arrival's own key), never a stored document's shared key.
      const own = (objectKeys: string[]) => objectKeys.filter((k) => k.startsWith(UPLOADS_PREFIX));
      const refused = async (code: RejectionCode, message: string) => {
        await removeObjects(storage, [...own(keys), ...staged]).catch(() => {});
        return refuse({
          log: contextLog,
          requestId: input.requestId,
          what: 'adding documents',
          reviewId: input.reviewId,
          code,
          message,
        });
      };
      let added: Awaited<ReturnType<typeof addDocuments>>;
      try {
        added = await addDocuments(sql, input.reviewId, rows, config.limits);
      } catch (err) {
        if (err instanceof IngestRejection) return refused(err.code, err.message);
        throw err;
      }
      if (added.added.length === 0 && rows.length > 0) {
        const duplicate = allDocumentsDuplicate();
        return refused(duplicate.code, duplicate.message);
      }
      const addedKeys = new Set(added.added.map((d) => d.objectKey));
      // Staged files that did not become documents where they lie, and documents another submission added first.
      await removeObjects(storage, [...unkept(staged, keys), ...own(keys.filter((k) => !addedKeys.has(k)))]);
      return {
        evidenceAdded: added.evidenceAdded,
        workingDocuments: added.added.flatMap((d) =>
          d.workingDocument ? [{ objectKey: d.objectKey, releaseId: d.workingDocument.releaseId }] : [],
        ),
        filenames: documents.map((d) => d.filename),
      };
    },

    /**
     * Reads the decisions of a returned working document, judges them against the review's releases and
     * stores them.
     */
    async applyWorkingDocument(input: {
      reviewId: string;
      objectKey: string;
      releaseId: string;
      uploaded: string[];
      sentBy?: DecisionSender;
    }): Promise<Disposition[]> {
      const [fields, answered, current] = await Promise.all([
        readBuffer(storage, input.objectKey).then(readWorkingDocumentFields),
        getRelease(sql, input.reviewId, input.releaseId),
        currentRelease(sql, input.reviewId),
      ]);
      const sentBy = input.sentBy ?? { apiKeyId: null, requestId: null };
      return recordDispositions(
        sql,
        { reviewId: input.reviewId, releaseId: input.releaseId, workingDocumentKey: input.objectKey, sentBy },
        (standing) =>
          judgeDispositions({
            fields,
            answered: answered?.findings ?? [],
            current: current?.findings ?? [],
            standing,
            uploaded: input.uploaded,
          }),
      );
    },

    /**
     * Writes a transition of the workflow to the read model (status, internal state, the transition log,
     * at the workflow's time of the transition: the write itself comes a round through Temporal later).
     */
    async recordState(input: {
      reviewId: string;
      internalState: InternalState;
      status: ReviewStatus;
      detail?: string;
      at?: string;
    }): Promise<void> {
      const { at, ...transition } = input;
      await recordTransition(sql, { ...transition, ...(at ? { at: new Date(at) } : {}) });
      // A review's run ends released (completed; a publication records its own, activities/release.ts) or
      // failed; an amendment released again counts again.
      if (input.internalState === 'released' || input.internalState === 'failed')
        workerMetrics.reviewsFinished.inc({ status: input.status });
    },
  };
}
