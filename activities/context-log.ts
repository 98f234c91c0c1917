// The running activity's logger (Temporal's context logger, which adds the workflow and run ids, the
// activity's name and attempt), for code made once and called in many activities.
import { Context } from '@temporalio/activity';
import { deferredLogger, type Logger } from '../src/telemetry/logger.js';

export const contextLog: Logger = deferredLogger(() => Context.current().log);
