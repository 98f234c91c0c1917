// The log's records: one JSON object per line with one schema, levels below LOG_LEVEL left out, a value
// never breaking its line, and the same records as short lines for a terminal.
import test from 'ava';
import { createLogger, type LogFormat, type LogLevel } from '../../../src/telemetry/log.js';

const AT = new Date('2026-11-27T10:00:00.000Z');

async function written(
  format: LogFormat,
  level: LogLevel,
  emit: (log: ReturnType<typeof createLogger>) => void,
): Promise<string> {
  let text = '';
  const log = createLogger({ service: 'api', level, format, write: (t) => (text += t), now: () => AT });
  emit(log);
  // Written once per turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  return text;
}

test('a record is one JSON line: time, level, service, message, then the context, then its own fields', async (t) => {
  const text = await written('json', 'info', (log) =>
    log.child({ request_id: 'req-1' }).info('POST /v1/reviews 201 12 ms', { status: 201, review_id: 'rev-1' }),
  );
  t.is(text.split('\n').length, 2);
  t.is(
    text,
    '{"time":"2026-11-27T10:00:00.000Z","level":"info","service":"api","message":"POST /v1/reviews 201 12 ms",' +
      '"request_id":"req-1","review_id":"rev-1","status":201}\n',
  );
});

test('records below LOG_LEVEL are left out', async (t) => {
  const text = await written('json', 'warn', (log) => {
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
  });
  t.deepEqual(
    text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { level: string }).level),
    ['warn', 'error'],
  );
});

test('a value with line breaks stays within its line, in JSON and pretty alike', async (t) => {
  const forged = 'x\n{"level":"error","message":"forged"}\r\n';
  for (const format of ['json', 'pretty'] as const) {
    const text = await written(format, 'info', (log) => log.info(forged, { detail: forged }));
    t.is(text.split('\n').length, 2, format);
  }
});

test('an error is written with its name, message and stack', async (t) => {
  const text = await written('json', 'info', (log) => log.error('failed', { error: new TypeError('boom') }));
  const record = JSON.parse(text) as { error: { name: string; message: string; stack: string } };
  t.is(record.error.name, 'TypeError');
  t.is(record.error.message, 'boom');
  t.regex(record.error.stack, /log\.test\.ts/);
});

test('pretty lines read as the service, the id and the message', async (t) => {
  const text = await written('pretty', 'info', (log) => {
    log.child({ request_id: 'req-1' }).info('POST /v1/reviews 201 12 ms', { status: 201, review_id: 'rev-1' });
    log.warn('slow', { review_id: 'rev-1', attempt: 2 });
  });
  // What the message says already (the status) is not said again.
  t.is(text, 'api: [req-1] POST /v1/reviews 201 12 ms review_id=rev-1\napi: WARN [rev-1] slow attempt=2\n');
});
