// A logger that keeps its records, for unit tests of code that logs.
import type { LogFields, LogLevel, ServiceLogger } from '../../src/telemetry/logger.js';

export interface LogRecord {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

export function recordingLogger(
  records: LogRecord[] = [],
  bound: LogFields = {},
): ServiceLogger & { records: LogRecord[] } {
  const log = (level: LogLevel, message: string, fields: LogFields = {}) =>
    void records.push({ level, message, fields: { ...bound, ...fields } });
  return {
    records,
    log,
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    child: (fields) => recordingLogger(records, { ...bound, ...fields }),
  };
}
