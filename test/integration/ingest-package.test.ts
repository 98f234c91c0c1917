// Unpacking a submission against the real MinIO: documents hashed and written once, transient until
// committed, when they are kept where they lie; a refused submission leaves no object behind.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { commitDocuments, unpackSubmission } from '../../src/ingest/package.js';
import type { StagedFile } from '../../src/reviews/staged-file.js';
import { uploadKey } from '../../src/storage/keys.js';
import { putStream } from '../../src/storage/minio.js';
import { IngestRejection } from '../../src/ingest/rejection.js';
import { isTransient, keysUnder, sha256 as sha, storage, transientUnder } from '../support/objects.js';
import { docx, elf, pdf, png, tar, zip } from '../support/fixtures.js';

const MiB = 1024 * 1024;
const limits = { maxFileBytes: 100 * MiB, maxReviewDocuments: 300, maxReviewBytes: 500 * MiB };

/** Stages files as the API does (under an owner of their own, here named after the review). */
async function stage(reviewId: string, files: { name: string; data: Buffer }[]): Promise<StagedFile[]> {
  const staged: StagedFile[] = [];
  for (const f of files) {
    const key = uploadKey(reviewId);
    await putStream(storage, key, Readable.from([f.data]), 'application/octet-stream');
    staged.push({ key, filename: f.name, declaredType: 'application/octet-stream', source: 'upload' });
  }
  return staged;
}

const uploads = (reviewId: string) => keysUnder(`uploads/${reviewId}/`);
const members = (reviewId: string) => keysUnder(`uploads/members/${reviewId}/`);

test(
  'documents and package members become documents, hashed; duplicates collapse; commit keeps them ' + 'where they lie',
  async (t) => {
    const reviewId = randomUUID();
    const cd = await pdf('CD');
    const note = await pdf('Note');
    const files = await stage(reviewId, [
      { name: 'cd.pdf', data: cd },
      {
        name: 'package.zip',
        data: await zip([
          { name: 'loan/note.pdf', data: note },
          { name: 'loan/cd-copy.pdf', data: cd },
          { name: 'id.png', data: png },
        ]),
      },
      { name: 'more.tgz', data: tar([{ name: 'again/note.pdf', data: note }], { gzip: true }) },
    ]);
    const result = await unpackSubmission(files, { storage, reviewId, limits });
    t.deepEqual(
      result.documents.map((d) => [d.filename, d.mime, d.source, d.sourceDetail, d.sha256, d.size]),
      [
        ['cd.pdf', 'application/pdf', 'upload', null, sha(cd), cd.length],
        ['note.pdf', 'application/pdf', 'archive_member', 'package.zip', sha(note), note.length],
        ['id.png', 'image/png', 'archive_member', 'package.zip', sha(png), png.length],
      ],
    );
    t.is(result.offered, 3);
    // These uploads carry no measurement (as from an API before it measured), so each is hashed again into
    // an object of its own; the duplicates (cd-copy.pdf, again/note.pdf) were written and dropped. What is
    // kept is transient until committed.
    const memberKeys = await members(reviewId);
    t.deepEqual(memberKeys, result.documents.map((d) => d.tempKey).sort());
    t.deepEqual(await transientUnder(`uploads/members/${reviewId}/`), memberKeys);
    const keys = await commitDocuments(storage, result.documents);
    t.deepEqual(
      keys,
      result.documents.map((d) => d.tempKey),
    );
    t.deepEqual(await transientUnder(`uploads/members/${reviewId}/`), []);
    // The uploads themselves are their owner's to remove (and expire if it does not).
    t.deepEqual(await transientUnder(`uploads/${reviewId}/`), files.map((f) => f.key).sort());
    t.deepEqual(await readAll(keys[1]!), note);
    t.deepEqual(await keysUnder(`documents/${reviewId}/`), [], 'nothing copied');
  },
);

test(
  'a staged file measured on its way in is neither read whole nor written again: its object ' + 'becomes the document',
  async (t) => {
    const reviewId = randomUUID();
    const cd = await pdf('CD');
    const [file] = await stage(reviewId, [{ name: 'cd.pdf', data: cd }]);
    // The stager's measurement is what ingest uses: it does not hash the object again.
    const measured: StagedFile = { ...file!, content: { sha256: sha(cd), size: cd.length } };
    const result = await unpackSubmission([measured], { storage, reviewId, limits });
    t.deepEqual(
      result.documents.map((d) => [d.filename, d.sha256, d.size, d.tempKey]),
      [['cd.pdf', sha(cd), cd.length, measured.key]],
    );
    // Nothing was written beside the upload.
    t.deepEqual(await uploads(reviewId), [measured.key]);
    t.deepEqual(await members(reviewId), []);
    t.true(await isTransient(measured.key));
    const [key] = await commitDocuments(storage, result.documents);
    t.is(key, measured.key);
    t.false(await isTransient(measured.key));
    t.deepEqual(await readAll(key!), cd);
    t.deepEqual(await keysUnder(`documents/${reviewId}/`), [], 'nothing copied');
  },
);

test('a refused submission leaves measured uploads to their owner', async (t) => {
  const reviewId = randomUUID();
  const staged = await stage(reviewId, [
    { name: 'cd.pdf', data: await pdf('CD') },
    { name: 'invoice.pdf', data: elf },
  ]);
  const measured = staged.map((f, i) => ({ ...f, content: { sha256: sha(Buffer.from(String(i))), size: 1 } }));
  const err = await t.throwsAsync(unpackSubmission(measured, { storage, reviewId, limits }), {
    instanceOf: IngestRejection,
  });
  t.is(err!.code, 'document_unsupported');
  t.deepEqual(await uploads(reviewId), staged.map((f) => f.key).sort());
  t.deepEqual(await members(reviewId), []);
});

async function readAll(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await storage.client.getObject(storage.bucket, key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

for (const [title, build, code, pattern] of [
  [
    'an executable renamed .pdf',
    async () => [{ name: 'invoice.pdf', data: elf }],
    'document_unsupported',
    /invoice\.pdf/,
  ],
  ['a .docx', async () => [{ name: 'letter.docx', data: await docx() }], 'document_unsupported', /letter\.docx/],
  [
    'a nested archive',
    async () => [
      {
        name: 'outer.zip',
        data: await zip([{ name: 'inner.zip', data: await zip([{ name: 'a.pdf', data: await pdf() }]) }]),
      },
    ],
    'document_unsupported',
    /inner\.zip.*nested/,
  ],
  [
    'a package with a script',
    async () => [
      {
        name: 'p.zip',
        data: await zip([
          { name: 'a.pdf', data: await pdf() },
          { name: 'run.sh', data: Buffer.from('#!/bin/sh\n') },
        ]),
      },
    ],
    'document_unsupported',
    /run\.sh/,
  ],
  ['an empty file', async () => [{ name: 'blank.pdf', data: Buffer.alloc(0) }], 'document_required', /blank\.pdf/],
  [
    'an empty package member',
    async () => [
      {
        name: 'p.tar',
        data: tar([
          { name: 'a.pdf', data: await pdf() },
          { name: 'empty.pdf', data: Buffer.alloc(0) },
        ]),
      },
    ],
    'document_required',
    /empty\.pdf/,
  ],
] as const) {
  test(`${title} is refused and nothing is kept`, async (t) => {
    const reviewId = randomUUID();
    const files = await stage(reviewId, [{ name: 'good.png', data: png }, ...(await build())]);
    const err = await t.throwsAsync(unpackSubmission(files, { storage, reviewId, limits }), {
      instanceOf: IngestRejection,
    });
    t.is(err!.code, code);
    t.regex(err!.message, pattern);
    t.deepEqual(await uploads(reviewId), files.map((f) => f.key).sort());
    t.deepEqual(await members(reviewId), []);
    t.deepEqual(await keysUnder(`documents/${reviewId}/`), []);
  });
}

test('per-review count and size limits apply after unpacking; known documents count as duplicates', async (t) => {
  const reviewId = randomUUID();
  const docs = await Promise.all([1, 2, 3].map((i) => pdf(`doc ${i}`)));
  const files = await stage(reviewId, [
    { name: 'p.zip', data: await zip(docs.map((d, i) => ({ name: `${i}.pdf`, data: d }))) },
  ]);
  const many = await t.throwsAsync(
    unpackSubmission(files, { storage, reviewId, limits: { ...limits, maxReviewDocuments: 2 } }),
    { instanceOf: IngestRejection },
  );
  t.is(many!.code, 'too_many_documents');
  const big = await t.throwsAsync(
    unpackSubmission(files, { storage, reviewId, limits: { ...limits, maxReviewBytes: docs[0]!.length * 2 } }),
    { instanceOf: IngestRejection },
  );
  t.is(big!.code, 'documents_too_large');
  const known = await unpackSubmission(files, { storage, reviewId, limits, knownHashes: new Set(docs.map(sha)) });
  t.deepEqual(known.documents, []);
  t.is(known.offered, 3);
  t.deepEqual(await uploads(reviewId), files.map((f) => f.key).sort());
  t.deepEqual(await members(reviewId), []);
});

test('a document repeated in a submission, or already on the review, is dropped before it is inspected', async (t) => {
  const reviewId = randomUUID();
  const cd = await pdf('CD');
  const held = await pdf('Held');
  const files = await stage(reviewId, [
    {
      name: 'package.zip',
      data: await zip([
        ...Array.from({ length: 20 }, (_, i) => ({ name: `copy-${i}.pdf`, data: cd })),
        { name: 'held.pdf', data: held },
      ]),
    },
    { name: 'cd-again.pdf', data: cd },
  ]);
  const inspected: string[] = [];
  const result = await unpackSubmission(files, {
    storage,
    reviewId,
    limits,
    knownHashes: new Set([sha(held)]),
    workingDocuments: {
      maxBytes: 25 * MiB,
      inspect: async (bytes) => {
        inspected.push(sha(bytes));
        return null;
      },
      admit: () => {},
    },
  });
  t.deepEqual(
    result.documents.map((d) => d.sha256),
    [sha(cd)],
  );
  t.deepEqual(inspected, [sha(cd)], 'one inspection: the first copy');
});
