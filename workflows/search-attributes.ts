// Search attributes operators filter reviews by in the Temporal UI. The worker registers them at start.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ReviewStatusKey = defineSearchAttributeKey('ReviewStatus', SearchAttributeType.KEYWORD);
export const InternalStateKey = defineSearchAttributeKey('InternalState', SearchAttributeType.KEYWORD);
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
