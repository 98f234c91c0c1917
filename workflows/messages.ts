// The messages of the review workflow, shared by the workflow and its callers (API, tests, operators).
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { StagedFile } from '../src/ingest/package.js';
import type { DocumentSource, Review } from '../src/reviews/review.js';
import type { InternalState } from './states.js';

export const TASK_QUEUE_DEFAULT = 'reviews';

/** Start arguments: who owns the review. Everything else arrives with the create update. */
export interface ReviewWorkflowInput {
  reviewId: string;
  organizationId: string;
  sandbox: boolean;
}

export interface CreateReviewRequest {
  reviewType: string;
  label: string | null;
  referenceId: string | null;
  metadata: Record<string, string> | null;
  /** ISO timestamp chosen by the API, so the id order and created_at agree with the request. */
  createdAt: string;
  /** Uploads already streamed to staging (object keys only: no bytes in workflow payloads). */
  files: StagedFile[];
  /** Signed source URLs, fetched by the ingest activity. */
  sources: DocumentSource[];
}

export interface ReviewWorkflowState {
  reviewId: string;
  organizationId: string;
  sandbox: boolean;
  internalState: InternalState;
  created: boolean;
  rejection: { code: string; message: string } | null;
}

/** Records the review; returns the Review, or fails with an ApplicationFailure whose type is an API error code. */
export const createReviewUpdate = defineUpdate<Review, [CreateReviewRequest]>('createReview');
export const getStateQuery = defineQuery<ReviewWorkflowState>('getState');

/** ApplicationFailure types a create can end with; each is an error code of the interface. */
export const CREATE_REJECTIONS = [
  'invalid_request',
  'working_doc_not_review_input',
  'duplicate_reference_id',
  'document_required',
  'document_unsupported',
  'document_too_large',
  'too_many_documents',
  'documents_too_large',
] as const;
export type CreateRejection = (typeof CREATE_REJECTIONS)[number];
