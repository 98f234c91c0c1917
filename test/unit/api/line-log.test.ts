// The API's log lines are written in order, all those of one turn of the event loop in one write.
import test from 'ava';
import { lineLog } from '../../../api/line-log.js';

test('lines logged in one turn go out together, in order, each on its own line with the prefix', async (t) => {
  const writes: string[] = [];
  const log = lineLog('api: ', (text) => writes.push(text));
  log('first');
  log('second');
  t.deepEqual(writes, []);
  await new Promise((r) => setImmediate(r));
  t.deepEqual(writes, ['api: first\napi: second\n']);
  log('third');
  await new Promise((r) => setImmediate(r));
  t.deepEqual(writes, ['api: first\napi: second\n', 'api: third\n']);
});
