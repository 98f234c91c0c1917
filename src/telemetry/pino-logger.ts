// The service's log, written by pino: one JSON object per line, one schema for the API and the worker, so
// that a log pipeline (Loki, CloudWatch, Elastic) indexes both alike and a request or a review is found by
// its id:
//
//   level, time, service, then the context that applies (request_id, review_id, workflow_id, run_id,
//   activity), the event's own fields, and its message.
//
// The local stack prints the same records as short lines through pino-pretty (LOG_FORMAT=pretty). What a
// log must never hold is borrower data (decisions.md, "What logs and metrics hold"): call sites log ids,
// codes, counts and durations, and `test/integration/observability.test.ts` feeds a package and looks for
// its values in every line.
//
// Lines go to stderr through pino's asynchronous destination (sync: false): a synchronous write per
// request (stderr to a file or pipe is synchronous in Node) was a tenth of a read's cost. What is still
// buffered when the process exits is written by pino's exit hook; a process that exits on purpose calls
// exitAfterLogs, which first waits for the write under way too.
import pino, { type DestinationStream } from 'pino';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { oneLine } from '../runtime/log-line.js';
import { deferredLogger, type LogFields, type Logger, type LogLevel, type ServiceLogger } from './logger.js';

export type LogFormat = 'json' | 'pretty';

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
/** The record's own keys: a field of the same name does not replace them. */
const HEAD = new Set(['time', 'level', 'service', 'message']);

export function createLogger(o: LoggerOptions): ServiceLogger {
  const write = o.write;
  const out = write
    ? new Writable({
        write(chunk: Buffer, _encoding, done) {
          write(chunk.toString());
          done();
        },
      })
    : stderr();
  const now = o.now;
  const logger = pino(
    {
      level: o.level,
      base: { service: o.service },
      messageKey: 'message',
      timestamp: now ? () => `,"time":"${now().toISOString()}"` : pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: ownFields },
    },
    o.format === 'json' ? out : prettyLines(out),
  );
  const make = (bound: pino.Logger): ServiceLogger => {
    const log = (level: LogLevel, message: string, fields?: LogFields) => bound[level](fields ?? {}, message);
    return {
      log,
      debug: (m, f) => log('debug', m, f),
      info: (m, f) => log('info', m, f),
      warn: (m, f) => log('warn', m, f),
      error: (m, f) => log('error', m, f),
      child: (fields) => make(bound.child(fields)),
    };
  };
  return make(logger);
}

/** The event's fields as a record holds them (pino's log formatter): context first, values JSON can write. */
function ownFields(fields: LogFields): LogFields {
  const record: LogFields = {};
  for (const key of CONTEXT) if (fields[key] !== undefined) record[key] = fields[key];
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined && !(key in record) && !HEAD.has(key)) record[key] = jsonValue(value);
  return record;
}

/** An Error as its name, message and stack (JSON.stringify would write `{}`). */
function jsonValue(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * LOG_FORMAT=pretty: pino-pretty, each record on one line (`WARN: api: message {"review_id":…}`): the
 * fields as one JSON object (an error's stack too: no key is treated as an error to lay out on lines of
 * its own), and the message with its control characters escaped, so that no value starts a line.
 */
function prettyLines(out: DestinationStream | Writable): DestinationStream {
  // Loaded only here: some 60 ms at a process's start that a JSON log does not need.
  const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pinoPretty({
    destination: out,
    colorize: false,
    singleLine: true,
    errorLikeObjectKeys: [],
    messageKey: 'message',
    ignore: 'time,service',
    messageFormat: (record, key) => `${String(record.service)}: ${oneLine(String(record[key]))}`,
  });
}

let stderrDestination: ReturnType<typeof pino.destination> | undefined;

/** The process's one stderr destination, asynchronous. */
function stderr(): DestinationStream {
  // minLength 1, not pino's 0: a line (never shorter) is still written at once, and flush(cb) then calls
  // back once the write under way is done (with 0 it calls back at once).
  stderrDestination ??= pino.destination({ dest: 2, sync: false, minLength: 1 });
  return stderrDestination;
}

/**
 * Resolves once what was logged so far is on stderr, or after `ms` (a stderr that takes nothing does not
 * hold a shutdown up). pino's exit hook writes what is still buffered at exit, but not a write under
 * way, which the exit can cut short: a process exits through exitAfterLogs.
 */
function flushLogs(ms = 2_000): Promise<void> {
  const out = stderrDestination;
  if (out === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    out.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** process.exit(code) once the lines logged before it are written. */
export async function exitAfterLogs(code: number): Promise<never> {
  await flushLogs();
  process.exit(code);
}

/** Until the entry point names one: made on first use, so that importing this module opens nothing. */
let processLogger: Logger | undefined;

/**
 * The process's logger, for the few modules deep in the code that log on their own account (a reader
 * that falls back to another engine, a rule that failed): the entry point names it once at start.
 */
export const processLog: Logger = deferredLogger(
  () => (processLogger ??= createLogger({ service: 'process', level: 'info', format: 'json' })),
);

export function setProcessLogger(logger: Logger): void {
  processLogger = logger;
}
