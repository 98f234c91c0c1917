// A service's log, read as the test sees it: lines reach the file through a pipe, a moment after the
// response that caused them, so a test waits for the line it expects rather than reading once.
import { readFile } from 'node:fs/promises';

/** The log's text once it holds `pattern`, or (after `timeoutMs`) as it is, for the assertion to show. */
export async function logOnceItHolds(file: string, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  for (const until = Date.now() + timeoutMs; ; ) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (pattern.test(text) || Date.now() > until) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
}
