// A service's log, read as the test sees it: JSON records (src/telemetry/pino-logger.ts), one per line, reaching
// the file through a pipe a moment after the response that caused them, so a test waits for the record it
// expects rather than reading once.
import { readFile } from 'node:fs/promises';

export interface LogRecord {
  time: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  service: string;
  message: string;
  request_id?: string;
  review_id?: string;
  workflow_id?: string;
  run_id?: string;
  activity?: string;
  [field: string]: unknown;
}

/** The records of a log's text; a line that is not a record fails (every line a service writes is one). */
export function logRecords(text: string): LogRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      try {
        return JSON.parse(line) as LogRecord;
      } catch {
        throw new Error(`a log line that is not a JSON record: ${line.slice(0, 300)}`);
      }
    });
}

/** The first record `match` holds for, once the log has one; undefined after `timeoutMs`. */
export async function recordOnceItHolds(
  file: string,
  match: (record: LogRecord) => boolean,
  timeoutMs = 10_000,
): Promise<LogRecord | undefined> {
  for (const until = Date.now() + timeoutMs; ; ) {
    const found = logRecords(await readFile(file, 'utf8').catch(() => '')).find(match);
    if (found || Date.now() > until) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}
