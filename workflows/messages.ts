// The messages of the review workflow, shared by the workflow and its callers (API, tests, operators).
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ErrorCode } from '../src/errors/catalog.js';
import type { StagedFile } from '../src/reviews/staged-file.js';
import type { DocumentSource, Review } from '../src/reviews/review.js';
import type { AddDocumentsResult } from '../src/reviews/add-documents.js';
import type { Dispute } from '../src/reviews/pipeline.js';
import type { InternalState } from '../src/reviews/states.js';

export const TASK_QUEUE_DEFAULT = 'reviews';

/** Start arguments: who owns the review. Everything else arrives with the create update. */
export interface ReviewWorkflowInput {
  reviewId: string;
  organizationId: string;
  sandbox: boolean;
  /**
   * Set when this run continues a recorded review whose earlier run has closed (update-with-start of add
   * documents, an operator's hold): the review exists, in this state. Unset on a review's first run, which
   * a create update starts.
   */
  resumed?: { internalState: InternalState };
  /** Set by continue-as-new: the state the previous run handed over. */
  carried?: ReviewWorkflowState;
}

export interface CreateReviewRequest {
  reviewType: string;
  label: string | null;
  referenceId: string | null;
  metadata: Record<string, string> | null;
  /** ISO timestamp chosen by the API, so the id order and created_at agree with the request. */
  createdAt: string;
  /**
   * ISO time after which the workflow refuses the create unread: the API stops waiting for the update to
   * be accepted a little later and answers 503, so a create accepted too late never becomes a review
   * (api/review-workflow.ts).
   */
  acceptBy: string;
  /** Uploads already streamed to staging (object keys only: no bytes in workflow payloads). */
  files: StagedFile[];
  /** Signed source URLs, fetched by the create's ingest activity. */
  sources: DocumentSource[];
  /** The API request's X-Request-Id: a refusal is logged under it. */
  requestId?: string;
}

/** Documents added to an existing review: uploads already in staging, or signed URLs. */
export interface AddDocumentsRequest {
  files: StagedFile[];
  sources: DocumentSource[];
  /** As for a create. */
  requestId?: string;
  /** The API key that sent them: decisions in a working document are recorded as its. */
  apiKeyId?: string;
  /** As for a create: past it the workflow refuses the documents unread (the API has answered 503). */
  acceptBy: string;
}

export interface ReviewWorkflowState {
  reviewId: string;
  organizationId: string;
  sandbox: boolean;
  internalState: InternalState;
  created: boolean;
  rejection: { code: string; message: string } | null;
  /** New evidence (or an applied decision) arrived since the last analysis started: analyse again. */
  reassessmentPending: boolean;
  /** Releases published so far: the first is announced as review.completed, later ones as review.amended. */
  releases: number;
  /** When a review waiting for its primary documents is completed without them (ISO time). */
  awaitingDeadline: string | null;
  /** The deadline passed: release with the missing-document findings. */
  deadlinePassed: boolean;
  /** An operator asked to hold the next release at the release gate. */
  holdRequested: boolean;
  /** An operator approved the release waiting at the gate. */
  approved: boolean;
  /** What the last analysis found, for operators. */
  lastAnalysis: {
    documents: number;
    unreadable: number;
    primaryPresent: boolean;
    findings: number;
    disputed: number;
  } | null;
  /** The findings the lender disputes in the last analysis (the first 20), with comments and senders. */
  disputes: Dispute[];
  /** The release waiting at the release gate for an operator's approval, and why it waits. */
  gate: { releaseId: string; reason: string } | null;
  /** Why the review is where it is, in words (the failure, the gate's reason, a blocked publication). */
  detail: string | null;
}

/** Records the review; returns the Review, or fails with an ApplicationFailure whose type is an API error code. */
export const createReviewUpdate = defineUpdate<Review, [CreateReviewRequest]>('createReview');
/**
 * Adds documents; returns the Add-documents result, or fails with an ApplicationFailure typed with an API
 * error code.
 */
export const addDocumentsUpdate = defineUpdate<AddDocumentsResult, [AddDocumentsRequest]>('addDocuments');
export const getStateQuery = defineQuery<ReviewWorkflowState>('getState');
/** Operator: release what waits at the release gate, or lift a hold asked for; refused when there is neither. */
export const approveUpdate = defineUpdate<string, []>('approve');
/** Operator: hold the review's next release at the release gate until approved; refused when that cannot apply. */
export const holdUpdate = defineUpdate<string, []>('hold');
/** Who asked for a review's deletion (an API key's id, or the organization's retention) and when. */
export interface DeleteReviewRequest {
  requestedBy: string;
  requestedAt: string;
  /**
   * The retention's deletion: refused (`not_at_rest`) unless the review is at rest (released or failed),
   * so that documents that arrived since the sweep found the review are never deleted unread.
   */
  onlyAtRest?: boolean;
}
/**
 * Deletes the review: stops its work in flight, then removes its documents, reports and rows (one audit
 * row stays); completes once they are gone, and the run ends.
 */
/** The refusal of the retention's deletion of a review that is not at rest (DeleteReviewRequest.onlyAtRest). */
export const NOT_AT_REST = 'not_at_rest';
export const deleteReviewUpdate = defineUpdate<void, [DeleteReviewRequest]>('deleteReview');
/** Sent by a review of the same organization that gave back its analysis slot. */
export const capacityFreedSignal = defineSignal('capacityFreed');

/** ApplicationFailure types a create can end with; each is an error code of the interface. */
export const CREATE_REJECTIONS = [
  'invalid_request',
  'service_unavailable',
  'working_doc_not_review_input',
  'duplicate_reference_id',
  'document_required',
  'document_unsupported',
  'document_too_large',
  'too_many_documents',
  'documents_too_large',
] as const satisfies readonly ErrorCode[];
export type CreateRejection = (typeof CREATE_REJECTIONS)[number];

/** ApplicationFailure types adding documents can end with; each is an error code of the interface. */
export const ADD_REJECTIONS = [
  'invalid_request',
  'service_unavailable',
  'review_not_found',
  'review_failed',
  'document_required',
  'document_unsupported',
  'document_too_large',
  'too_many_documents',
  'documents_too_large',
  'all_documents_duplicate',
  'working_doc_flattened',
] as const satisfies readonly ErrorCode[];
