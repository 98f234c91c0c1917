// Telling an upload that may be a working document from one that cannot, without parsing it: the marker's
// name is found where the service writes it (in an object stream, compressed) and where a viewer's plain
// save leaves it; lenders' PDFs with object streams of their own are told apart; and a file that names the
// marker beside an object stream that inflates past the budget, or is encoded some other way, is no
// working document, so that pdf-lib never inflates it. The scan charges what it reads and its time as well as
// what it inflates, and measures the cross-reference streams pdf-lib inflates too.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  OBJECT_STREAMS_MAX_INFLATED_BYTES,
  SCAN_MAX_MS,
  scanForMarker,
} from '../../../src/working-document/marker-scan.js';
import { inspectWorkingDocument } from '../../../src/working-document/marker.js';
import { workingDocument } from '../../support/fixtures.js';

const NAME = 'LoanReviewWorkingDocument';
const secret = 'a-server-secret-of-at-least-32-characters';
const mark = { reviewId: randomUUID(), releaseId: randomUUID() };

/** A PDF of one page whose information dictionary names the marker and which holds one object stream. */
function withObjectStream(o: { dictionary: string; data: Buffer }): Buffer {
  const parts = [
    '%PDF-1.7\n',
    '1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n',
    '2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n',
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 72 72]>> endobj\n',
    `4 0 obj <</${NAME} (wd1.forged)>> endobj\n`,
    `5 0 obj <<${o.dictionary} /Length ${o.data.length}>> stream\n`,
  ];
  return Buffer.concat([
    Buffer.from(parts.join(''), 'latin1'),
    o.data,
    Buffer.from('\nendstream endobj\ntrailer <</Root 1 0 R /Info 4 0 R>>\n%%EOF\n', 'latin1'),
  ]);
}

test(
  'the working document as the service renders it names the marker only inside a compressed ' +
    'object stream, and is found there',
  async (t) => {
    const rendered = await workingDocument({ ...mark, secret });
    t.false(rendered.includes(`/${NAME}`), 'the name is not in the bytes as written');
    t.is(await scanForMarker(rendered, NAME), 'present');
  },
);

test('a working document saved again without object streams names the marker in its bytes, and is found', async (t) => {
  const doc = await PDFDocument.load(await workingDocument({ ...mark, secret }));
  const plain = Buffer.from(await doc.save({ useObjectStreams: false }));
  t.true(plain.includes(`/${NAME}`));
  t.is(await scanForMarker(plain, NAME), 'present');
  t.deepEqual(await inspectWorkingDocument(plain, secret), { ...mark, fieldCount: 3 });
});

test("lenders' PDFs, object streams and all, are told apart without a parse", async (t) => {
  for (const name of [
    'cd_sample_fixed_rate_h25b.pdf',
    'le_sample_fixed_rate_h24b.pdf',
    'le_sample_arm_interest_only_h24c.pdf',
    'cd_sample_refi_excess_cost_h25f1.pdf',
  ]) {
    const bytes = await readFile(new URL(`../../corpus/cfpb/${name}`, import.meta.url));
    t.true(bytes.includes('/ObjStm'), `${name} has object streams`);
    t.is(await scanForMarker(bytes, NAME), 'absent', name);
  }
});

test(
  'a file naming the marker beside an object stream that inflates past the budget is no working ' +
    'document, once or twice compressed',
  async (t) => {
    const zeros = Buffer.alloc(OBJECT_STREAMS_MAX_INFLATED_BYTES + 1024 * 1024);
    const once = deflateSync(zeros, { level: 9 });
    const bomb = withObjectStream({ dictionary: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', data: once });
    t.true(bomb.length < 64 * 1024, `${bomb.length} bytes`);
    t.is(await scanForMarker(bomb, NAME), 'absent');
    t.is(await inspectWorkingDocument(bomb, secret), null);
    // Compressed twice, the first inflation is small and the second is the bomb.
    const twice = withObjectStream({
      dictionary: '/Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode]',
      data: deflateSync(once, { level: 9 }),
    });
    t.true(twice.length < 4 * 1024, `${twice.length} bytes`);
    t.is(await scanForMarker(twice, NAME), 'absent');
    // Within the budget, the same file names the marker: only a parse can say whether it is one.
    const small = withObjectStream({
      dictionary: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode',
      data: deflateSync(Buffer.alloc(1024)),
    });
    t.is(await scanForMarker(small, NAME), 'present');
    t.is(await inspectWorkingDocument(small, secret), null, 'a forged marker');
  },
);

test(
  'an object stream encoded otherwise than by Flate alone, or damaged, cannot be measured, so the ' +
    'file is not ours',
  async (t) => {
    const data = deflateSync(Buffer.alloc(1024));
    for (const dictionary of [
      '/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode',
      '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /DecodeParms <</Predictor 12 /Columns 4>>',
    ]) {
      t.is(await scanForMarker(withObjectStream({ dictionary, data }), NAME), 'absent', dictionary);
    }
    // Damaged: what a lenient decoder would make of it is not measured.
    t.is(
      await scanForMarker(
        withObjectStream({
          dictionary: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode',
          data: Buffer.from('not deflate data at all'),
        }),
        NAME,
      ),
      'absent',
    );
    t.is(
      await scanForMarker(
        withObjectStream({ dictionary: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', data }),
        NAME,
      ),
      'present',
    );
  },
);

/** 8 MiB of empty stored deflate blocks in a zlib wrapper: it inflates to nothing, one block at a time. */
function emptyBlocks(bytes: number): Buffer {
  const block = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);
  const blocks = Buffer.alloc(Math.floor(bytes / block.length) * block.length);
  for (let at = 0; at < blocks.length; at += block.length) block.copy(blocks, at);
  return Buffer.concat([Buffer.from([0x78, 0x9c]), blocks, Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff])]);
}

test(
  'an object stream of 8 MiB of empty deflate blocks (nothing inflated, much read) is charged for what it ' +
    'is read from: no working document, judged without inflating it, the event loop free meanwhile',
  async (t) => {
    const pdf = withObjectStream({
      dictionary: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode',
      data: emptyBlocks(8 * 1024 * 1024),
    });
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const started = performance.now();
    t.is(await scanForMarker(pdf, NAME), 'absent');
    const ms = performance.now() - started;
    loop.disable();
    t.true(ms < SCAN_MAX_MS, `scanned in ${ms.toFixed(0)} ms`);
    t.true(loop.max / 1e6 < 200, `the longest block of the loop: ${(loop.max / 1e6).toFixed(0)} ms`);
    // Within the encoded budget the same kind of stream is inflated, on the pool, and measured.
    const small = withObjectStream({
      dictionary: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode',
      data: emptyBlocks(256 * 1024),
    });
    t.is(await scanForMarker(small, NAME), 'present');
    t.is(await scanForMarker(small, NAME, { maxEncoded: 128 * 1024 }), 'absent');
  },
);

test(
  'a cross-reference stream is measured as an object stream is (pdf-lib inflates both as it parses): one ' +
    'that inflates past the budget makes the file no working document',
  async (t) => {
    const bomb = deflateSync(Buffer.alloc(OBJECT_STREAMS_MAX_INFLATED_BYTES + 1024 * 1024), { level: 9 });
    const xrefBomb = withObjectStream({
      dictionary: '/Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode',
      data: bomb,
    });
    t.true(xrefBomb.length < 64 * 1024, `${xrefBomb.length} bytes`);
    t.is(await scanForMarker(xrefBomb, NAME), 'absent');
    t.is(await inspectWorkingDocument(xrefBomb, secret), null);
    // A cross-reference stream within the budget is no obstacle; a trailer's /XRefStm is no stream.
    const small = withObjectStream({
      dictionary: '/Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode',
      data: deflateSync(Buffer.alloc(42)),
    });
    t.is(await scanForMarker(small, NAME), 'present');
    const hybrid = Buffer.concat([small, Buffer.from('trailer <</Root 1 0 R /XRefStm 1234>>\n', 'latin1')]);
    t.is(await scanForMarker(hybrid, NAME), 'present');
  },
);
