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

export interface Rejection {
  code: string;
  message: string;
  /** The request field refused, when it is one field rather than the code's own. */
  param?: string;
}

/**
 * A submission's refusal as an error code of the interface (with the field it names, if any), or
 * internal_error for anything else.
 */
export function rejectionOf(err: unknown): Rejection {
  const cause = causeOf(err);
  if (cause instanceof ApplicationFailure && cause.type && REJECTIONS.includes(cause.type)) {
    const [param] = cause.details ?? [];
    return { code: cause.type, message: cause.message, ...(typeof param === 'string' ? { param } : {}) };
  }
  return { code: 'internal_error', message: 'The review could not be recorded; retry later.' };
}

/** A refusal as the failure an update ends with: the API reads the code, the message and the field. */
export function refusalFailure(r: Rejection): ApplicationFailure {
  // The field's name, never a value.
  const details = r.param === undefined ? [] : [r.param];
  return ApplicationFailure.create({ type: r.code, message: r.message, details, nonRetryable: true });
}
