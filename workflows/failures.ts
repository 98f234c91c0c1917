// How the workflow reads an activity's failure: the refusal an integrator is answered with, or the words
// an operator reads in the current details.
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { REJECTIONS } from './activity-options.js';

/** The failure an activity ended with, out of Temporal's ActivityFailure wrapper. */
function causeOf(err: unknown): unknown {
  return err instanceof ActivityFailure && err.cause ? err.cause : err;
}

export function failureMessage(err: unknown): string {
  const cause = causeOf(err);
  return cause instanceof Error ? cause.message : String(cause);
}

/** A submission's refusal as an error code of the interface, or internal_error for anything else. */
export function rejectionOf(err: unknown): { code: string; message: string } {
  const cause = causeOf(err);
  if (cause instanceof ApplicationFailure && cause.type && REJECTIONS.includes(cause.type)) {
    return { code: cause.type, message: cause.message };
  }
  return { code: 'internal_error', message: 'The review could not be recorded; retry later.' };
}
