// The running activity's logger (Temporal's context logger, which adds the workflow and run ids, the
// activity's name and attempt), for code made once and called in many activities.
import { Context } from '@temporalio/activity';
import type { Logger } from '../src/telemetry/log.js';

export const contextLog: Logger = {
  debug: (message, fields) => Context.current().log.debug(message, fields),
  info: (message, fields) => Context.current().log.info(message, fields),
  warn: (message, fields) => Context.current().log.warn(message, fields),
  error: (message, fields) => Context.current().log.error(message, fields),
};
