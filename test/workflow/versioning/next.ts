// The next version of the workflow code, as docs/development.md's procedure makes an incompatible change:
// the review workflow with one new command (here a memo upsert, standing for any new activity, timer or
// wait) guarded by a patch asked for first thing in the run. Runs started before the change (no marker
// in their history) keep the old path; runs started after it take the new one. Bundled by
// test/workflow/versioning.test.ts only.
import { patched, upsertMemo } from '@temporalio/workflow';
import type { ReviewWorkflowInput, ReviewWorkflowState } from '../../../workflows/messages.js';
import { reviewWorkflow as today } from '../../../workflows/review.js';

export async function reviewWorkflow(input: ReviewWorkflowInput): Promise<ReviewWorkflowState> {
  if (patched('example-change')) upsertMemo({ workflowVersion: 'example-change' });
  return today(input);
}
