// The Temporal SDK's logs (the worker's, its native core's, and what workflows and activities log through
// their context loggers) written as the service's own records: the SDK's metadata becomes the schema's
// context fields (workflow and run id, activity), and the review is named, its workflow id being its id.
import type { LogLevel as TemporalLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import type { LogFields, LogLevel, ServiceLogger } from './logger.js';

const LEVELS: Record<TemporalLevel, LogLevel> = {
  TRACE: 'debug',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** The SDK's metadata this schema keeps, under its names; the rest (task tokens among it) is dropped. */
function fieldsOf(meta: LogMetadata = {}): LogFields {
  const {
    workflowId,
    runId,
    workflowRunId,
    activityType,
    activityId,
    attempt,
    taskQueue,
    sdkComponent,
    error,
    ...own
  } = meta as Record<string, unknown>;
  const known = new Set([
    'namespace',
    'taskToken',
    'isLocal',
    'workflowType',
    'activityRunId',
    'target',
    'spanContexts',
  ]);
  return {
    review_id: workflowId,
    workflow_id: workflowId,
    run_id: runId ?? workflowRunId,
    activity: activityType,
    activity_id: activityId,
    attempt,
    task_queue: taskQueue,
    component: sdkComponent,
    error,
    ...Object.fromEntries(Object.entries(own).filter(([key]) => !known.has(key))),
  };
}

export function temporalLogger(log: ServiceLogger): TemporalLogger {
  const at =
    (level: TemporalLevel) =>
    (message: string, meta?: LogMetadata): void =>
      log.log(LEVELS[level], message, fieldsOf(meta));
  return {
    log: (level, message, meta) => at(level)(message, meta),
    trace: at('TRACE'),
    debug: at('DEBUG'),
    info: at('INFO'),
    warn: at('WARN'),
    error: at('ERROR'),
  };
}

/** LOG_LEVEL as the SDK's native core takes it. */
export function coreLevel(level: LogLevel): TemporalLevel {
  return level === 'debug' ? 'DEBUG' : level === 'info' ? 'INFO' : level === 'warn' ? 'WARN' : 'ERROR';
}
