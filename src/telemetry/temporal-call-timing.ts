// Calls the API makes to Temporal, timed for its metrics (loan_review_temporal_call_duration_seconds): a
// client interceptor sees every start, update, signal, query and describe, whichever code makes it. An
// update's time is until the answer its caller waits for (the workflow's, for a create).
import type { Next, WorkflowClientInterceptor } from '@temporalio/client';

export type ObserveCall = (operation: string, outcome: 'ok' | 'error', seconds: number) => void;

async function timed<T>(operation: string, observe: ObserveCall, call: () => Promise<T>): Promise<T> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const result = await call();
    observe(operation, 'ok', seconds());
    return result;
  } catch (err) {
    observe(operation, 'error', seconds());
    throw err;
  }
}

type I = WorkflowClientInterceptor;

export function timedTemporalCalls(observe: ObserveCall): WorkflowClientInterceptor {
  return {
    startWithDetails: (input, next: Next<I, 'startWithDetails'>) => timed('start', observe, () => next(input)),
    startUpdate: (input, next: Next<I, 'startUpdate'>) => timed('update', observe, () => next(input)),
    startUpdateWithStart: (input, next: Next<I, 'startUpdateWithStart'>) =>
      timed('update_with_start', observe, () => next(input)),
    signal: (input, next: Next<I, 'signal'>) => timed('signal', observe, () => next(input)),
    signalWithStart: (input, next: Next<I, 'signalWithStart'>) =>
      timed('signal_with_start', observe, () => next(input)),
    query: (input, next: Next<I, 'query'>) => timed('query', observe, () => next(input)),
    describe: (input, next: Next<I, 'describe'>) => timed('describe', observe, () => next(input)),
  };
}
