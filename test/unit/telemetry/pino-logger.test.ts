// The log's records, written by pino: one JSON object per line with one schema, levels below LOG_LEVEL left
// out, a value never breaking its line, the same records as short lines for a terminal, and the last lines
// of a process that exits written before it does.
import test from 'ava';
import type { LogLevel } from '../../../src/telemetry/logger.js';
import { createLogger, type LogFormat } from '../../../src/telemetry/pino-logger.js';
import { runScript } from '../../support/script-process.js';

const AT = new Date('2026-11-27T10:00:00.000Z');

async function written(
  format: LogFormat,
  level: LogLevel,
  emit: (log: ReturnType<typeof createLogger>) => void,
): Promise<string> {
  let text = '';
  const log = createLogger({ service: 'api', level, format, write: (t) => (text += t), now: () => AT });
  emit(log);
  // Given a destination of its own, pino writes each record as it is made; a turn of the loop is waited all
  // the same.
  await new Promise((resolve) => setImmediate(resolve));
  return text;
}

test('a record is one JSON line: level, time, service, the context, its own fields, its message', async (t) => {
  const text = await written('json', 'info', (log) =>
    log.child({ request_id: 'req-1' }).info('POST /v1/reviews 201 12 ms', { status: 201, review_id: 'rev-1' }),
  );
  t.is(text.split('\n').length, 2);
  t.is(
    text,
    '{"level":"info","time":"2026-11-27T10:00:00.000Z","service":"api","request_id":"req-1","review_id":"rev-1",' +
      '"status":201,"message":"POST /v1/reviews 201 12 ms"}\n',
  );
});

test("a field named like one of the record's own keys does not replace it, nor is it written twice", async (t) => {
  const text = await written('json', 'info', (log) =>
    log.info('done', { message: 'other', level: 'error', service: 'x', time: 0, count: 2n, gone: undefined }),
  );
  t.is(text, '{"level":"info","time":"2026-11-27T10:00:00.000Z","service":"api","count":"2","message":"done"}\n');
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
  t.regex(record.error.stack, /pino-logger\.test\.ts/);
});

test("pretty lines are pino-pretty's, one a record: the level, the service, the message, its fields", async (t) => {
  const text = await written('pretty', 'info', (log) => {
    log.child({ request_id: 'req-1' }).info('POST /v1/reviews 201 12 ms', { status: 201, review_id: 'rev-1' });
    log.warn('failed', { review_id: 'rev-1', attempt: 2, error: new TypeError('boom') });
  });
  const [first, second, end] = text.split('\n');
  t.is(first, 'INFO: api: POST /v1/reviews 201 12 ms {"request_id":"req-1","review_id":"rev-1","status":201}');
  // An error's stack stays within its record's line.
  t.regex(
    second ?? '',
    /^WARN: api: failed \{"review_id":"rev-1","attempt":2,"error":\{"name":"TypeError",.*"stack":"TypeError: boom\\n/,
  );
  t.is(end, '');
});

/** What a process importing the logger writes to stderr, given the script's body, and its exit code. */
async function processOutput(body: string): Promise<{ stderr: string; code: number | null }> {
  const moduleUrl = new URL('../../../src/telemetry/pino-logger.ts', import.meta.url).href;
  return runScript(`const { createLogger, exitAfterLogs } = await import(${JSON.stringify(moduleUrl)});\n${body}`);
}

test('the lines logged before a process exits are on its stderr, pretty ones too', async (t) => {
  const { stderr, code } = await processOutput(
    "const log = createLogger({ service: 'worker', level: 'info', format: 'json' });\n" +
      "const pretty = createLogger({ service: 'api', level: 'info', format: 'pretty' });\n" +
      "for (let i = 0; i < 2000; i++) log.info('line ' + i, { i, pad: 'x'.repeat(200) });\n" +
      "pretty.warn('last words', { review_id: 'rev-1', attempt: 2 });\n" +
      "log.error('failed', { error: new Error('boom') });\n" +
      'await exitAfterLogs(3);',
  );
  t.is(code, 3);
  const lines = stderr.trimEnd().split('\n');
  t.is(lines.length, 2002);
  t.is(lines.filter((l) => l.startsWith('{"level":"info"')).length, 2000);
  t.is(lines.at(-2), 'WARN: api: last words {"review_id":"rev-1","attempt":2}');
  const last = JSON.parse(lines.at(-1) ?? '') as { level: string; service: string; error: { message: string } };
  t.is(last.level, 'error');
  t.is(last.service, 'worker');
  t.is(last.error.message, 'boom');
});
