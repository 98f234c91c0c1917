// What code logs through: the shape of Temporal's own Logger (message first, then fields), so that an
// activity's context logger is one and code in src/ logs without knowing which logger writes the line.
// The service's own logger, on pino, is src/telemetry/pino-logger.ts.

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface ServiceLogger extends Logger {
  /** This logger with `fields` on every record (a request's id, a review's). */
  child(fields: LogFields): ServiceLogger;
  /** Writes a record at `level` (Temporal's levels map onto these). */
  log(level: LogLevel, message: string, fields?: LogFields): void;
}

/** A logger that writes nothing (unit tests of code that logs). */
export const silentLogger: ServiceLogger = {
  log: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/** A logger that writes through whichever logger `current` names when a record is written. */
export function deferredLogger(current: () => Logger): Logger {
  return {
    debug: (message, fields) => current().debug(message, fields),
    info: (message, fields) => current().info(message, fields),
    warn: (message, fields) => current().warn(message, fields),
    error: (message, fields) => current().error(message, fields),
  };
}
