// What in the services' logs tells of trouble: unanswered or failed requests, blocked loops, replays that
// failed. Printed after a failed test run (scripts/test.ts) and after every benchmark on a throw-away stack
// (scripts/stack/throwaway.ts): a run keeps only what it printed, and a figure or a failed assertion
// rarely says what the service saw.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const TROUBLE =
  /"level":"(warn|error)"|had no answer within|\bfailed\b|event loop was blocked|TMPRL\d+|[Nn]ondeterminism|unhandled/;
const TROUBLE_LINES = 60;

/**
 * The API's and workers' lines that tell of trouble (the last TROUBLE_LINES, each cut at 400 characters), as
 * `#` comments.
 */
export async function printServiceTrouble(logDir: string, print: (line: string) => void = console.log): Promise<void> {
  const files = (await readdir(logDir).catch(() => []))
    .filter((f) => /^(api|worker|analysis)[\w-]*\.log$/.test(f))
    .sort();
  const lines: string[] = [];
  for (const file of files) {
    for (const line of (await readFile(join(logDir, file), 'utf8')).split('\n')) {
      if (TROUBLE.test(line)) lines.push(`${file}: ${line.slice(0, 400)}`);
    }
  }
  if (lines.length === 0) return;
  print(
    `# the services' logs: ${lines.length} line(s) of ` +
      `trouble${lines.length > TROUBLE_LINES ? `, the last ${TROUBLE_LINES}` : ''}`,
  );
  for (const line of lines.slice(-TROUBLE_LINES)) print(`#   ${line}`);
}
