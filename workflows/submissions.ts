// The integrator's messages: create and add-documents (Temporal updates). Each ingests what was sent,
// records it and says what the pipeline must do next; the pipeline itself runs in the workflow's main
// loop. Submissions to one review are ingested side by side and recorded one at a time (an async mutex,
// as the SDK's safe-message-handlers sample does), so each record sees the documents of the one before.
import { ApplicationFailure, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import { Mutex } from 'async-mutex';
import type { AddDocumentsResult, Disposition } from '../src/reviews/add-documents.js';
import { isRefused, type PassBegun, type Refused } from '../src/reviews/pipeline.js';
import type { Review } from '../src/reviews/review.js';
import type { IngestSubmissionResult } from '../activities/ingest.js';
import { customerStatus } from '../src/reviews/states.js';
import { InternalStateKey, REJECTED_CREATE, ReviewStatusKey } from '../src/temporal/search-attribute-keys.js';
import { ingest, requestWriter } from './activity-options.js';
import { refusalFailure, rejectionOf } from './failures.js';
import type { AddDocumentsRequest, CreateReviewRequest, ReviewWorkflowInput } from './messages.js';
import type { ReviewProgress } from './progress.js';

/**
 * An activity's result, or its refusal thrown as the failure the handler's catch reads (rejectionOf): the
 * one path by which a refusal, the activity's or the workflow's own, reaches the update's caller.
 */
function answered<T extends object>(result: T | Refused): T {
  if (isRefused(result)) throw refusalFailure(result.refused);
  return result;
}

export class Submissions {
  private readonly lock = new Mutex();
  /** The canned sandbox release's time, which its review.completed webhook carries. */
  sandboxReleasedAt: string | undefined;
  /** The pipeline's first pass, begun by the activity that recorded the review, until the pipeline takes it. */
  private firstPass: PassBegun | null = null;

  constructor(
    private readonly input: ReviewWorkflowInput,
    private readonly progress: ReviewProgress,
  ) {}

  /** Synchronous: a second create on the same workflow is refused before it reaches history. */
  validateCreate(): void {
    const { state } = this.progress;
    if (state.created || state.rejection) throw new Error('this review has already been created');
  }

  /**
   * The create: refused unread once past its accept time (the API has answered 503 by then), else its
   * submission is ingested and the review recorded by one activity on the ingest queue; a sandbox review's
   * canned report is released before the create is answered.
   */
  async create(request: CreateReviewRequest): Promise<Review> {
    const { state } = this.progress;
    const { files, sources, acceptBy, requestId, ...fields } = request;
    try {
      await this.refuseIfLate(files, acceptBy);
      const { review, pass } = answered(
        await ingest().createReview.executeWithOptions(
          { summary: `Ingest ${files.length} upload(s) and ${sources.length} source URL(s); record the review` },
          [
            {
              ...this.input,
              ...fields,
              ...(requestId ? { requestId } : {}),
              status: customerStatus(state.internalState),
              internalState: state.internalState,
              files,
              sources,
            },
          ],
        ),
      );
      this.progress.review.created();
      if (!state.sandbox) {
        this.firstPass = pass;
        return review;
      }
      // A sandbox review never enters the pipeline: its canned report is released at once (RULES.md).
      const generatedAt = new Date().toISOString();
      const released = await requestWriter.releaseSandboxReport.executeWithOptions(
        { summary: 'Release the canned sandbox report' },
        [{ reviewId: this.input.reviewId, releaseId: uuid4(), generatedAt }],
      );
      this.sandboxReleasedAt = generatedAt;
      this.progress.review.released();
      void this.progress.enter('released', { recorded: true });
      return released;
    } catch (err) {
      const rejection = rejectionOf(err);
      this.progress.review.createRefused(rejection);
      // Operators search runs by these: a refused create is no review (the API answers 404 for its id).
      upsertSearchAttributes([
        { key: InternalStateKey, value: REJECTED_CREATE },
        { key: ReviewStatusKey, value: null },
      ]);
      throw refusalFailure(rejection);
    }
  }

  /**
   * Refuses, its uploads discarded, a submission taken past its accept time: the API has answered 503 and
   * removed them already, or will (api/review-workflow.ts), so it must never be recorded.
   */
  private async refuseIfLate(files: readonly { key: string }[], acceptBy: string): Promise<void> {
    if (Date.now() <= Date.parse(acceptBy)) return;
    await requestWriter.discardUploads.executeWithOptions({ summary: 'Discard the uploads of a late submission' }, [
      files.map((f) => f.key),
    ]);
    throw ApplicationFailure.create({
      type: 'service_unavailable',
      message: 'The submission reached its workflow after the API stopped waiting; retry it.',
      nonRetryable: true,
    });
  }

  /** The first pass the create began, once: later passes are begun by the pipeline. */
  takeFirstPass(): PassBegun | null {
    const pass = this.firstPass;
    this.firstPass = null;
    return pass;
  }

  validateAdd(): void {
    const { state } = this.progress;
    if (!state.created)
      throw ApplicationFailure.create({ type: 'review_not_found', message: 'No such review.', nonRetryable: true });
    if (state.internalState === 'failed') {
      throw ApplicationFailure.create({
        type: 'review_failed',
        message: 'The review failed; documents can no longer be added.',
        nonRetryable: true,
      });
    }
  }

  /**
   * Ingests the documents at once, beside any other submission's ingest (fetching a slow source URL must
   * not hold up another client's upload), then records them one submission at a time, each seeing what
   * the one before recorded: the review's limits and duplicates are checked again as it is recorded.
   */
  async add(request: AddDocumentsRequest): Promise<AddDocumentsResult> {
    const { files, sources, requestId, acceptBy } = request;
    const reviewId = this.input.reviewId;
    let submission: IngestSubmissionResult;
    try {
      await this.refuseIfLate(files, acceptBy);
      submission = answered(
        await ingest().ingestSubmission.executeWithOptions(
          { summary: `Add documents: ${files.length} upload(s) and ${sources.length} source URL(s)` },
          [{ reviewId, target: { kind: 'add', reviewId }, files, sources, ...(requestId ? { requestId } : {}) }],
        ),
      );
    } catch (err) {
      throw refusalFailure(rejectionOf(err));
    }
    return this.lock.runExclusive(() => this.record(request, submission));
  }

  private async record(
    { requestId, apiKeyId }: AddDocumentsRequest,
    submission: { submissionId: string },
  ): Promise<AddDocumentsResult> {
    const { state } = this.progress;
    const reviewId = this.input.reviewId;
    try {
      const recorded = answered(
        await requestWriter.recordAddedDocuments.executeWithOptions({ summary: 'Record the added documents' }, [
          { reviewId, ...submission, ...(requestId ? { requestId } : {}) },
        ]),
      );
      const dispositions: Disposition[] = [];
      for (const wd of recorded.workingDocuments) {
        dispositions.push(
          ...(await requestWriter.applyWorkingDocument.executeWithOptions(
            { summary: `Apply the decisions of the working document of release ${wd.releaseId}` },
            [
              {
                reviewId,
                objectKey: wd.objectKey,
                releaseId: wd.releaseId,
                uploaded: recorded.filenames,
                sentBy: { apiKeyId: apiKeyId ?? null, requestId: requestId ?? null },
              },
            ],
          )),
        );
      }
      const count = (outcome: Disposition['outcome']) => dispositions.filter((d) => d.outcome === outcome).length;
      // A sandbox review is never analysed: its documents are kept, its canned result stands (decisions.md,
      // "Adding documents").
      if (!state.sandbox && (recorded.evidenceAdded > 0 || count('applied') > 0)) {
        this.progress.review.documentsArrived();
        // The integrator sees the re-assessment start with this answer (interface: "the response carries processing").
        if (state.internalState === 'released') await this.progress.enter('amending');
        else if (state.internalState === 'awaiting_documents') await this.progress.enter('analysing');
      }
      return {
        review_id: reviewId,
        status: customerStatus(state.internalState),
        documents_ingested: recorded.evidenceAdded,
        dispositions,
        dispositions_applied: count('applied'),
        dispositions_failed: count('failed'),
        dispositions_skipped: count('skipped'),
      };
    } catch (err) {
      const rejection = rejectionOf(err);
      throw refusalFailure(rejection);
    }
  }
}
