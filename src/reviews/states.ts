// The review workflow's internal states and the coarse status integrators see (ARCHITECTURE.md, "The review
// workflow"). Internal states that mean nothing to a customer collapse to `processing`.
import type { ReviewStatus } from './review.js';

export const INTERNAL_STATES = [
  'waiting_for_capacity',
  'ingesting',
  'analysing',
  'rendering',
  'release_gate',
  'publication_blocked',
  'awaiting_documents',
  'released',
  'amending',
  'failed',
] as const;
export type InternalState = (typeof INTERNAL_STATES)[number];

const PROJECTION: Record<InternalState, ReviewStatus> = {
  waiting_for_capacity: 'queued',
  ingesting: 'processing',
  analysing: 'processing',
  rendering: 'processing',
  release_gate: 'processing',
  publication_blocked: 'processing',
  awaiting_documents: 'awaiting_documents',
  released: 'completed',
  amending: 'processing',
  failed: 'failed',
};

export function customerStatus(state: InternalState): ReviewStatus {
  return PROJECTION[state];
}

/**
 * A review at rest: its report released, or failed; nothing of it is in flight. (The SQL of
 * src/db/retention.ts and the partial indexes name the same two states literally.)
 */
export function atRest(state: InternalState): boolean {
  return state === 'released' || state === 'failed';
}
