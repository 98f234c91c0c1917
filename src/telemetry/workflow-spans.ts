// How a worker's workflows export their spans: Temporal's OpenTelemetry interceptor in the traced workflow
// bundle (worker/workflow-bundle.ts) makes them inside the sandbox and hands them out through a sink, which
// every worker registers, tracing or not, since the traced bundle's interceptor calls it either way (a
// replay runs it too). Without tracing the sink drops them, and no OpenTelemetry module is loaded for it.
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import type { InjectedSinks } from '@temporalio/worker';
import type { Tracing } from './tracing.js';

export type WorkflowSpanSinks = InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }>;

/** The sink workflow spans leave through: to `tracing`'s exporter, or nowhere when tracing is off. */
export function workflowSpanSinks(tracing: Tracing | undefined): WorkflowSpanSinks {
  return tracing?.workflowSinks ?? { exporter: { export: { fn: () => {}, callDuringReplay: false } } };
}
