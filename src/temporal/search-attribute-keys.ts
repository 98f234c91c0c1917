// The search attributes operators filter reviews by in the Temporal UI: the workflow sets them, the API
// sets them at start, the worker and the local stack register them (search-attributes.ts).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ReviewStatusKey = defineSearchAttributeKey('ReviewStatus', SearchAttributeType.KEYWORD);
export const InternalStateKey = defineSearchAttributeKey('InternalState', SearchAttributeType.KEYWORD);
/**
 * `InternalState` of a run whose create was refused: no review exists (the API answers 404 for its id), so
 * the run has no `ReviewStatus` and is not one of the review's internal states.
 */
export const REJECTED_CREATE = 'rejected';
export const OrgIdKey = defineSearchAttributeKey('OrgId', SearchAttributeType.KEYWORD);
export const ReferenceIdKey = defineSearchAttributeKey('ReferenceId', SearchAttributeType.KEYWORD);
export const SandboxKey = defineSearchAttributeKey('Sandbox', SearchAttributeType.BOOL);
export const ReviewTypeKey = defineSearchAttributeKey('ReviewType', SearchAttributeType.KEYWORD);

export const REVIEW_SEARCH_ATTRIBUTES = [
  ReviewStatusKey,
  InternalStateKey,
  OrgIdKey,
  ReferenceIdKey,
  SandboxKey,
  ReviewTypeKey,
] as const;
