// The workflows' tracing (built into the traced bundle, which a worker that traces runs:
// worker/workflow-bundle.ts). Temporal's OpenTelemetry interceptors make a span of a run, its updates and
// signals and each activity it schedules, and carry the trace to the activities in their headers, but
// only in a run its starter traced: one whose start (or a later update or signal) came with a trace
// context. A run nobody traces makes no spans and its history carries no trace headers. Whether a run is
// traced follows from its history alone (start, updates and signals, never a query, which is not in it),
// so a replay decides as the run did.
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import type { WorkflowInterceptors } from '@temporalio/workflow';

/** The header Temporal's OpenTelemetry interceptors carry a trace context in. */
const TRACE_HEADER = '_tracer-data';

type Call = (input: unknown, next: (input: unknown) => unknown) => unknown;

/** `tracer`'s interceptors, each called only once `traced()` holds; the call goes straight on otherwise. */
function whenTraced<T extends object>(tracer: T, traced: () => boolean): T {
  const gated: Record<string, Call> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(tracer))) {
    const method = (tracer as Record<string, unknown>)[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    gated[name] = (input, next) => (traced() ? (method as Call).call(tracer, input, next) : next(input));
  }
  return gated as T;
}

export const interceptors = (): WorkflowInterceptors => {
  let traced = false;
  const inbound = whenTraced(new OpenTelemetryInboundInterceptor(), () => traced);
  /** A message of the run's history that brings a trace makes the run traced from then on. */
  const noticing =
    <I extends { headers: Record<string, unknown> }, R>(call: (input: I, next: (input: I) => R) => R) =>
    (input: I, next: (input: I) => R): R => {
      if (input.headers[TRACE_HEADER] !== undefined) traced = true;
      return call(input, next);
    };
  return {
    inbound: [
      {
        ...inbound,
        execute: noticing(inbound.execute!),
        handleSignal: noticing(inbound.handleSignal!),
        handleUpdate: noticing(inbound.handleUpdate!),
      },
    ],
    outbound: [whenTraced(new OpenTelemetryOutboundInterceptor(), () => traced)],
    internals: [whenTraced(new OpenTelemetryInternalsInterceptor(), () => traced)],
  };
};
