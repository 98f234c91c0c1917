// A workflow history as one line per event, for the message of a test that found a history that does not
// replay: CI's output is all a CI run keeps, and the history is what a fix needs.
import type { WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { temporal as Api } from '@temporalio/proto';
import { getStateQuery, type ReviewWorkflowState } from '../../workflows/messages.js';

// A CommonJS module: its namespaces are properties of the default export under ESM.
const { temporal } = proto;

/** A marker's name and what tells it apart: a patch's id, a local activity's type. */
function markerOutline(marker: Api.api.history.v1.IMarkerRecordedEventAttributes): string {
  // A local activity's marker holds its result beside the data that names it: the payload that names it.
  for (const payload of Object.values(marker.details ?? {}).flatMap((d) => d.payloads ?? [])) {
    try {
      const detail = (payload.data ? JSON.parse(new TextDecoder().decode(payload.data)) : {}) as {
        id?: unknown;
        activity_type?: unknown;
        seq?: unknown;
      };
      const name =
        typeof detail.id === 'string'
          ? detail.id
          : typeof detail.activity_type === 'string'
            ? `${detail.activity_type} seq ${String(detail.seq)}`
            : undefined;
      if (name) return `${marker.markerName} ${name}`;
    } catch {
      // Not JSON: not the payload that names it.
    }
  }
  return marker.markerName ?? '';
}

/**
 * One line per event: its id, type, and the name that tells events of a type apart (activity, marker, update,
 * timer).
 */
export function historyOutline(history: Api.api.history.v1.IHistory): string {
  return (history.events ?? [])
    .map((e) => {
      const name =
        e.activityTaskScheduledEventAttributes?.activityType?.name ??
        (e.markerRecordedEventAttributes ? markerOutline(e.markerRecordedEventAttributes) : undefined) ??
        e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ??
        e.workflowExecutionSignaledEventAttributes?.signalName ??
        (e.timerStartedEventAttributes ? `timer ${e.timerStartedEventAttributes.timerId}` : '');
      const flags = e.workflowTaskCompletedEventAttributes?.sdkMetadata?.langUsedFlags?.join(',');
      return (
        `${String(e.eventId)} ${temporal.api.enums.v1.EventType[e.eventType ?? 0]} ` +
        `${name}${flags ? ` flags ${flags}` : ''}`
      );
    })
    .join('\n');
}

/**
 * The review's state as its workflow holds it (the getState query). A query of a closed review, or of one
 * no worker holds in memory, replays its history; a replay that fails (TMPRL1100) is a defect of the
 * workflow's code, and the error the test fails with then carries the history's outline.
 */
export async function queryState(handle: WorkflowHandle): Promise<ReviewWorkflowState> {
  try {
    return await handle.query(getStateQuery);
  } catch (err) {
    if (err instanceof Error && /TMPRL1100|nondeterminism/i.test(err.message)) {
      err.message +=
        `\nhistory of ` +
        `${handle.workflowId}:\n${historyOutline(await handle.fetchHistory().catch(() => ({ events: [] })))}`;
    }
    throw err;
  }
}
