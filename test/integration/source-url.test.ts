// Fetching signed source URLs (src/ingest/source-url.ts) against real HTTPS servers on this machine and the
// stack's MinIO: what is fetched lands in staging whole; every refusal names documents[i].url and leaves
// nothing behind; redirects are not followed; the connection goes only to the checked address.
import test from 'ava';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fetchSources, type SourceFetchOptions } from '../../src/ingest/source-url.js';
import { IngestRejection } from '../../src/ingest/rejection.js';
import { pinnedRequest } from '../../src/outbound/pinned-https.js';
import { SourceServer } from '../support/source-server.js';
import { stack } from '../support/stack.js';
import { pdf } from '../support/fixtures.js';
import { bytesOf, keysUnder, storage } from '../support/objects.js';

let server: SourceServer;
let untrusted: SourceServer;
test.before(async () => {
  server = await SourceServer.start();
  untrusted = await SourceServer.start({ trusted: false });
});
test.after.always(async () => {
  await server.close();
  await untrusted.close();
});

function options(extra: Partial<SourceFetchOptions> = {}): SourceFetchOptions {
  return {
    storage,
    reviewId: randomUUID(),
    maxFileBytes: 1024 * 1024,
    maxReviewBytes: 4 * 1024 * 1024,
    idleMs: 2000,
    totalMs: 30_000,
    allowLoopback: true,
    ...extra,
  };
}

const source = (url: string, filename = 'cd.pdf') => ({ filename, content_type: 'application/pdf', url });

const staged = (reviewId: string) => keysUnder(`uploads/sources/${reviewId}/`);

async function refusal(
  t: import('ava').ExecutionContext,
  o: SourceFetchOptions,
  urls: string[],
): Promise<IngestRejection> {
  const err = await t.throwsAsync(
    fetchSources(
      urls.map((u) => source(u)),
      o,
    ),
    { instanceOf: IngestRejection },
  );
  t.deepEqual(await staged(o.reviewId), [], 'nothing is left in staging');
  return err!;
}

test('each source is fetched whole into staging, in the order given', async (t) => {
  const a = await pdf('Closing Disclosure');
  const b = await pdf('Note');
  const o = options();
  const files = await fetchSources(
    [source(server.file('/a.pdf', a), 'a.pdf'), source(server.file('/b.pdf', b), 'b.pdf')],
    o,
  );
  t.deepEqual(
    files.map((f) => [f.filename, f.declaredType, f.source]),
    [
      ['a.pdf', 'application/pdf', 'url'],
      ['b.pdf', 'application/pdf', 'url'],
    ],
  );
  t.deepEqual(await bytesOf(files[0]!.key), a);
  t.deepEqual(await bytesOf(files[1]!.key), b);
  t.deepEqual(await staged(o.reviewId), files.map((f) => f.key).sort());
});

test('a body sent without a length (chunked) is fetched too', async (t) => {
  const body = await pdf('Chunked');
  const url = server.handle('/chunked.pdf', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.write(body.subarray(0, 100));
    setTimeout(() => res.end(body.subarray(100)), 50);
  });
  const [file] = await fetchSources([source(url)], options());
  t.deepEqual(await bytesOf(file!.key), body);
});

test('a redirect is refused and not followed', async (t) => {
  const target = server.file('/moved-here.pdf', await pdf());
  const url = server.handle('/moved.pdf', (_req, res) => res.writeHead(302, { location: target }).end());
  const err = await refusal(t, options(), [url]);
  t.is(err.code, 'invalid_request');
  t.regex(err.message, /documents\[0\]\.url: answered with a redirect \(HTTP 302\)/);
  t.is(server.hits('/moved-here.pdf'), 0, 'the redirect target was never requested');
});

test('an error status is refused, naming the failing entry; sources fetched before it are removed', async (t) => {
  const ok = server.file('/fine.pdf', await pdf());
  const gone = server.handle('/gone.pdf', (_req, res) => res.writeHead(403).end('expired signature'));
  const err = await refusal(t, options(), [ok, ok, gone]);
  t.is(err.code, 'invalid_request');
  t.regex(err.message, /documents\[2\]\.url: answered HTTP 403/);
  t.is(err.param, 'documents[2].url');
});

test('plain http, credentials in the URL and non-public addresses are refused before any connection', async (t) => {
  const cases: [string, RegExp][] = [
    [`http://127.0.0.1:${server.port}/a.pdf`, /must be an https:\/\/ URL/],
    [`https://user:pw@127.0.0.1:${server.port}/a.pdf`, /credentials/],
    ['https://10.0.0.7/a.pdf', /non-public address/],
    ['https://169.254.169.254/latest/meta-data/', /non-public address/],
    ['https://[::ffff:127.0.0.1]/a.pdf', /non-public address/],
    ['https://metadata.google.internal/a.pdf', /internal host/],
    ['not a url', /not a valid URL/],
  ];
  for (const [url, why] of cases) {
    const err = await refusal(t, options(), [url]);
    t.is(err.code, 'invalid_request', url);
    t.regex(err.message, /^Invalid request: documents\[0\]\.url: /, url);
    t.regex(err.message, why, url);
  }
  const loopbackForbidden = await refusal(t, options({ allowLoopback: false }), [server.url('/a.pdf')]);
  t.regex(loopbackForbidden.message, /non-public address/, 'loopback needs the test-only switch');
});

test('a server whose certificate is not trusted is refused', async (t) => {
  const err = await refusal(t, options(), [untrusted.file('/a.pdf', await pdf())]);
  t.is(err.code, 'invalid_request');
  t.regex(err.message, /documents\[0\]\.url: could not be fetched \(TLS certificate not accepted/);
});

test('a source that falls silent mid-body is cut off after the idle time', async (t) => {
  const url = server.handle('/slow.pdf', (_req, res) => {
    // Headers at once, then a few bytes, then nothing: the idle time covers the body, not just the connect.
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.write('%PDF-1.7\n');
  });
  const started = Date.now();
  const err = await refusal(t, options({ idleMs: 700 }), [url]);
  t.regex(err.message, /documents\[0\]\.url: sent nothing for 0\.7 s/);
  t.true(Date.now() - started < 5000);
});

test('a source that keeps sending, however slowly, is not idle: it is cut off only by the total time', async (t) => {
  const url = server.handle('/drip.pdf', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.write('%PDF-1.7\n');
    // A byte every 200 ms: never silent for the idle time, never done.
    const drip = setInterval(() => res.write(' '), 200);
    res.once('close', () => clearInterval(drip));
  });
  const err = await refusal(t, options({ idleMs: 700, totalMs: 2_000 }), [url]);
  t.regex(err.message, /documents\[0\]\.url: the sources did not finish within 2 s in all/);
});

/**
 * A file host in a process of its own, serving `body` at /held.pdf (its first 100 bytes, the rest 50 ms
 * later): it goes on sending while this process's event loop is held. Resolves with its URL, a promise of
 * the request's arrival, and how to stop it.
 */
async function hostInAnotherProcess(body: Buffer): Promise<{ url: string; asked: Promise<unknown>; stop: () => void }> {
  const script = `
    const { createServer } = require('node:https');
    const { readFileSync } = require('node:fs');
    const body = readFileSync(process.env.BODY);
    const server = createServer({ cert: readFileSync(process.env.CERT), key: readFileSync(process.env.KEY) }, (req, res) => {
      console.log('asked');
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length });
      res.write(body.subarray(0, 100));
      setTimeout(() => res.end(body.subarray(100)), 50);
    });
    server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`;
  const dir = await mkdtemp(join(tmpdir(), 'loan-review-held-source-'));
  await writeFile(join(dir, 'held.pdf'), body);
  const child = spawn(process.execPath, ['-e', script], {
    env: { PATH: process.env.PATH, BODY: join(dir, 'held.pdf'), CERT: stack.tls.certFile, KEY: stack.tls.keyFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const next = (prefix: string) =>
    new Promise<string>((resolve) => {
      const seen = (line: string) => {
        if (!line.startsWith(prefix)) return;
        lines.off('line', seen);
        resolve(line);
      };
      lines.on('line', seen);
    });
  const port = Number((await next('port ')).slice(5));
  return {
    url: `https://127.0.0.1:${port}/held.pdf?X-Signature=test&X-Expires=300`,
    asked: next('asked'),
    stop: () => {
      child.kill('SIGKILL');
      void rm(dir, { recursive: true, force: true });
    },
  };
}

test('a worker whose event loop is held longer than the idle time does not blame the source', async (t) => {
  const body = await pdf('Closing Disclosure');
  const host = await hostInAnotherProcess(body);
  try {
    const fetching = fetchSources([source(host.url)], options({ idleMs: 700 }));
    // Once the host has the request, this process's loop is held for 1.5 s while the host sends the body,
    // as a worker parsing another caller's file on its main thread would hold it.
    await host.asked;
    const until = Date.now() + 1_500;
    while (Date.now() < until) {
      // Busy.
    }
    const [file] = await fetching;
    t.is(file!.content?.size, body.length);
  } finally {
    host.stop();
  }
});

test('a connection closed mid-body is refused', async (t) => {
  const url = server.handle('/cut.pdf', (req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 100_000 });
    res.write(Buffer.alloc(1000, 0x25));
    setTimeout(() => req.socket.destroy(), 20);
  });
  const err = await refusal(t, options(), [url]);
  t.is(err.code, 'invalid_request');
  t.regex(err.message, /documents\[0\]\.url: could not be fetched/);
});

test('the per-file limit is enforced on the declared length and while streaming', async (t) => {
  const big = Buffer.alloc(4096, 0x41);
  const declared = server.file('/declared.pdf', big);
  const undeclared = server.handle('/undeclared.pdf', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end(big);
  });
  for (const url of [declared, undeclared]) {
    const err = await refusal(t, options({ maxFileBytes: 1000 }), [url]);
    t.is(err.code, 'document_too_large');
    t.regex(err.message, /documents\[0\]\.url: cd\.pdf is larger than the per-file limit of 1000 bytes/);
  }
});

test(
  'the sources together are cut off while streaming once they pass the per-review limit: ' +
    'documents_too_large, nothing kept',
  async (t) => {
    // Three files each within the per-file limit, 12 KiB together against a review limit of 10,000 bytes.
    const urls = ['a', 'b', 'c'].map((n) =>
      server.handle(`/${n}-undeclared.pdf`, (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(Buffer.alloc(4096, 0x41));
      }),
    );
    const err = await refusal(t, options({ maxFileBytes: 8192, maxReviewBytes: 10_000 }), urls);
    t.is(err.code, 'documents_too_large');
    t.regex(err.message, /more than the per-review limit of 10000 bytes/);
  },
);

test('the connection goes to the checked address, whatever the host name resolves to now', async (t) => {
  server.file('/pinned.pdf', Buffer.from('%PDF-pinned'));
  // This name does not resolve here at all: only the pinned address can have answered, and TLS was
  // verified against the name (the certificate is issued for it).
  const res = await pinnedRequest(
    {
      url: new URL(`https://documents.example.com:${server.port}/pinned.pdf`),
      addresses: [{ address: '127.0.0.1', family: 4 }],
    },
    // A guard against a hang only: what is asserted is where the connection went, not how fast.
    { method: 'GET', signal: AbortSignal.timeout(60_000) },
  );
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  t.is(res.statusCode, 200);
  t.is(Buffer.concat(chunks).toString(), '%PDF-pinned');
});
