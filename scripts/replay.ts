// `npm run replay -- <history.json>…`: replays histories exported from any cluster
// (`temporal workflow show --workflow-id <review id> --output json > h.json`) against the workflow code of
// this checkout; exits 1 when one of them would not replay (see docs/operations.md).
import { pathToFileURL } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { replayHistories } from './temporal/replay-histories.js';

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error('usage: npm run replay -- <history.json> [more.json …]');
  process.exit(2);
}
Runtime.install({ logger: new DefaultLogger('WARN') });
const results = await replayHistories(paths.map((p) => pathToFileURL(p)));
let failed = 0;
for (const [file, result] of results) {
  if (result !== 'ok') failed++;
  console.log(
    `${result === 'ok' ? 'replays' : 'FAILS  '}  ${file.pathname}${result === 'ok' ? '' : `\n         ${result}`}`,
  );
}
process.exit(failed === 0 ? 0 : 1);
