import { oneLine } from '../src/runtime/log-line.js';

// The API's log: one line per request (api/request-id.ts) and per failure, each kept to one line
// (src/runtime/log-line.ts). Written to stderr in one write
// per turn of the event loop rather than one per line: under load a synchronous write per request (stderr
// to a file or pipe is synchronous in Node) was a tenth of a read's cost. Lines still waiting when the
// process exits, however it exits short of being killed, are written then.

export function lineLog(
  prefix: string,
  write: (text: string) => void = (text) => process.stderr.write(text),
): (line: string) => void {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    write(text);
  };
  process.once('exit', flush);
  return (line) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(`${prefix}${oneLine(line)}\n`);
  };
}
