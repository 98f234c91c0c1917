// The service's log: one JSON object per line, one schema for the API and the worker, so that a log
// pipeline (Loki, CloudWatch, Elastic) indexes both alike and a request or a review is found by its id:
//
//   time, level, service, message, then the context that applies (request_id, review_id, workflow_id,
//   run_id, activity) and the event's own fields.
//
// The local stack prints the same records as short lines (LOG_FORMAT=pretty). What a log must never hold
// is borrower data (decisions.md, "What logs and metrics hold"): call sites log ids, codes, counts and
// durations, and `test/integration/observability.test.ts` feeds a package and looks for its values in
// every line.
//
// Lines are written to stderr in one write per turn of the event loop rather than one per line: under load
// a synchronous write per request (stderr to a file or pipe is synchronous in Node) was a tenth of a
// read's cost. Lines still waiting when the process exits, however it exits short of being killed, are
// written then.
import { oneLine } from '../runtime/log-line.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';
export type LogFields = Record<string, unknown>;

/** What code logs through: Temporal's own Logger has this shape, so an activity's context logger is one. */
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

export interface LoggerOptions {
  /** `api`, `worker`, … : which process wrote the line. */
  service: string;
  level: LogLevel;
  format: LogFormat;
  /** Where text goes; stderr unless said (tests collect it). */
  write?: (text: string) => void;
  /** Called for the time of a record; the clock unless said. */
  now?: () => Date;
}

/** Context fields, in the order a reader looks for them; the event's own fields follow. */
const CONTEXT = ['request_id', 'review_id', 'workflow_id', 'run_id', 'activity'] as const;

export function createLogger(o: LoggerOptions): ServiceLogger {
  const write = batched(o.write ?? ((text) => process.stderr.write(text)));
  const least = LOG_LEVELS.indexOf(o.level);
  const now = o.now ?? (() => new Date());
  const format = o.format === 'json' ? jsonLine : prettyLine;
  const make = (bound: LogFields): ServiceLogger => {
    const log = (level: LogLevel, message: string, fields?: LogFields) => {
      if (LOG_LEVELS.indexOf(level) < least) return;
      write(format({ time: now().toISOString(), level, service: o.service, message }, { ...bound, ...fields }));
    };
    return {
      log,
      debug: (m, f) => log('debug', m, f),
      info: (m, f) => log('info', m, f),
      warn: (m, f) => log('warn', m, f),
      error: (m, f) => log('error', m, f),
      child: (fields) => make({ ...bound, ...fields }),
    };
  };
  return make({});
}

interface Head {
  time: string;
  level: LogLevel;
  service: string;
  message: string;
}

function jsonLine(head: Head, fields: LogFields): string {
  const record: LogFields = { ...head };
  for (const key of CONTEXT) if (fields[key] !== undefined) record[key] = fields[key];
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined && !(key in record)) record[key] = jsonValue(value);
  // JSON escapes every control character: no value can end the line early or forge the next one.
  return `${JSON.stringify(record)}\n`;
}

/** An Error as its name, message and stack (JSON.stringify would write `{}`). */
function jsonValue(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** `api: [request id] message key=value …`, one line whatever the values hold. */
function prettyLine(head: Head, fields: LogFields): string {
  const id = fields.request_id ?? fields.review_id;
  const level = head.level === 'info' ? '' : `${head.level.toUpperCase()} `;
  // Fields the message already says (a request's method, path and status) are not said twice.
  const said = (value: unknown) =>
    (typeof value === 'string' || typeof value === 'number') && head.message.includes(String(value));
  const rest = Object.entries(fields)
    .filter(([key, value]) => value !== undefined && key !== 'request_id' && value !== id && !said(value))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(jsonValue(value))}`);
  const text = [`${level}${id === undefined ? '' : `[${String(id)}] `}${head.message}`, ...rest].join(' ');
  return `${head.service}: ${oneLine(text)}\n`;
}

/** `write` called once per turn of the event loop with what was logged in it. */
function batched(write: (text: string) => void): (text: string) => void {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    write(text);
  };
  process.once('exit', flush);
  return (text) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(text);
  };
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

let processLogger: Logger = createLogger({ service: 'process', level: 'info', format: 'json' });

/**
 * The process's logger, for the few modules deep in the code that log on their own account (a reader
 * that falls back to another engine, a rule that failed): the entry point names it once at start.
 */
export const processLog: Logger = deferredLogger(() => processLogger);

export function setProcessLogger(logger: Logger): void {
  processLogger = logger;
}
