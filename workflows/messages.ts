// The messages of the review workflow, shared by the workflow and its callers (API, tests, operators).
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { StagedFile } from '../src/ingest/package.js';
import type { DocumentSource, Review } from '../src/reviews/review.js';
import type { AddDocumentsResult } from '../src/reviews/add-documents.js';
import type { InternalState } from './states.js';

export const TASK_QUEUE_DEFAULT = 'reviews';

/** Start arguments: who owns the review. Everything else arrives with the create update. */
export interface ReviewWorkflowInput {
  reviewId: string;
  organizationId: string;
  sandbox: boolean;
  /**
   * Set when this run continues a review whose earlier run has closed (update-with-start of add
   * documents): the review exists, in this state.
   */
  resumed?: { internalState: InternalState };
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

/** Documents added to an existing review: uploads already in staging, or signed URLs. */
export interface AddDocumentsRequest {
  files: StagedFile[];
  sources: DocumentSource[];
}

export interface ReviewWorkflowState {
  reviewId: string;
  organizationId: string;
  sandbox: boolean;
  internalState: InternalState;
  created: boolean;
  rejection: { code: string; message: string } | null;
  /** New evidence arrived since the last analysis started: the pipeline re-assesses (orchestration). */
  reassessmentPending: boolean;
}

/** Records the review; returns the Review, or fails with an ApplicationFailure whose type is an API error code. */
export const createReviewUpdate = defineUpdate<Review, [CreateReviewRequest]>('createReview');
/** Adds documents; returns the Add-documents result, or fails with an ApplicationFailure typed with an API error code. */
export const addDocumentsUpdate = defineUpdate<AddDocumentsResult, [AddDocumentsRequest]>('addDocuments');
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

/** ApplicationFailure types adding documents can end with; each is an error code of the interface. */
export const ADD_REJECTIONS = [
  'invalid_request',
  'review_not_found',
  'review_failed',
  'document_required',
  'document_unsupported',
  'document_too_large',
  'too_many_documents',
  'documents_too_large',
  'all_documents_duplicate',
  'working_doc_flattened',
] as const;
