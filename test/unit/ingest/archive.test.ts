// Package readers: every member handed over as a stream, and every hostile archive refused with the
// member named, before anything of it is kept.
import test from 'ava';
import { Readable } from 'node:stream';
import { readTar, readZip, type ArchiveLimits, type ArchiveMember } from '../../../src/ingest/archive.js';
import { IngestRejection } from '../../../src/ingest/rejection.js';
import { sniff, SNIFF_BYTES } from '../../../src/ingest/sniff.js';
import { peek } from '../../../src/streams/peek.js';
import { junkTarGz } from '../../support/hostile-files.js';
import { bufferSource, docx, elf, markEncrypted, pdf, png, renameMember, tar, zip } from '../../support/fixtures.js';
import { onThisMachine } from '../../support/machine-load.js';

const MiB = 1024 * 1024;
const limits = (archiveBytes: number): ArchiveLimits => ({
  maxMembers: 300,
  maxMemberBytes: 100 * MiB,
  maxExpandedBytes: Math.min(10 * archiveBytes, 500 * MiB),
});

async function collect(kind: 'zip' | 'tar', archive: Buffer, l: ArchiveLimits = limits(archive.length)) {
  const members: { path: string; bytes: Buffer }[] = [];
  const onMember = async (m: ArchiveMember) => {
    const chunks: Buffer[] = [];
    for await (const c of m.stream) chunks.push(c as Buffer);
    members.push({ path: m.path, bytes: Buffer.concat(chunks) });
  };
  if (kind === 'zip') await readZip('package.zip', bufferSource(archive), l, onMember);
  else await readTar('package.tar', Readable.from([archive]), l, onMember);
  return members;
}

async function rejection(p: Promise<unknown>): Promise<IngestRejection> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof IngestRejection)) throw new Error(`expected an IngestRejection, got ${String(err)}`);
  return err;
}

test('a zip hands over every file, skipping directories and Finder metadata', async (t) => {
  const cd = await pdf('CD');
  const archive = await zip([
    { name: 'loan/cd.pdf', data: cd },
    { name: 'loan/scan.png', data: png },
    { name: '__MACOSX/loan/._cd.pdf', data: Buffer.from('AppleDouble junk') },
    { name: 'loan/.DS_Store', data: Buffer.from('junk') },
  ]);
  const members = await collect('zip', archive);
  t.deepEqual(
    members.map((m) => m.path),
    ['loan/cd.pdf', 'loan/scan.png'],
  );
  t.deepEqual(members[0]!.bytes, cd);
  t.deepEqual(members[1]!.bytes, png);
});

test('a tar and a tar.gz hand over every file', async (t) => {
  const note = await pdf('Note');
  for (const gzip of [false, true]) {
    const archive = tar(
      [
        { name: 'docs/', type: '5' },
        { name: 'docs/note.pdf', data: note },
        { name: 'docs/id.png', data: png },
      ],
      { gzip },
    );
    const members = await collect('tar', archive);
    t.deepEqual(
      members.map((m) => m.path),
      ['docs/note.pdf', 'docs/id.png'],
    );
    t.deepEqual(members[0]!.bytes, note);
  }
});

test('path traversal and absolute paths are refused, naming the member', async (t) => {
  const z = renameMember(await zip([{ name: 'xx/evil.pdf', data: await pdf() }]), 'xx/evil.pdf', '../evil.pdf');
  const zr = await rejection(collect('zip', z));
  t.is(zr.code, 'document_unsupported');
  t.regex(zr.message, /evil\.pdf/);
  for (const name of ['../../etc/passwd.pdf', '/etc/cron.d/x.pdf', 'docs/../../x.pdf']) {
    const tr = await rejection(collect('tar', tar([{ name, data: png }])));
    t.is(tr.code, 'document_unsupported', name);
    t.true(tr.message.includes(name), tr.message);
  }
});

test('symbolic links, hard links and devices are refused', async (t) => {
  const zl = await rejection(
    collect('zip', await zip([{ name: 'link.pdf', data: Buffer.from('/etc/passwd'), mode: 0o120777 }])),
  );
  t.regex(zl.message, /link\.pdf is a symbolic link/);
  for (const [type, what] of [
    ['2', /link/],
    ['1', /link/],
    ['3', /not a regular file/],
  ] as const) {
    const r = await rejection(
      collect('tar', tar([{ name: 'x.pdf', type, ...(type === '3' ? {} : { linkName: '/etc/passwd' }) }])),
    );
    t.is(r.code, 'document_unsupported');
    t.regex(r.message, what);
  }
});

test('a password-protected zip is refused', async (t) => {
  const r = await rejection(collect('zip', markEncrypted(await zip([{ name: 'secret.pdf', data: await pdf() }]))));
  t.is(r.code, 'document_unsupported');
  t.regex(r.message, /password-protected/);
});

test('a zip bomb is stopped by the expansion bound (10 × the archive size)', async (t) => {
  const archive = await zip([{ name: 'bomb.pdf', data: Buffer.alloc(40 * MiB, 0) }]);
  t.true(archive.length < MiB);
  const r = await rejection(collect('zip', archive));
  t.is(r.code, 'documents_too_large');
  t.regex(r.message, /bomb guard/);
});

test('a member over the per-file limit is document_too_large; too many members is too_many_documents', async (t) => {
  const archive = await zip([{ name: 'big.pdf', data: Buffer.alloc(3 * MiB, 1), compress: false }]);
  const r = await rejection(
    collect('zip', archive, { maxMembers: 10, maxMemberBytes: 2 * MiB, maxExpandedBytes: 100 * MiB }),
  );
  t.is(r.code, 'document_too_large');
  t.regex(r.message, /big\.pdf/);
  const many = await zip(Array.from({ length: 4 }, (_, i) => ({ name: `p${i}.png`, data: png })));
  const m = await rejection(collect('zip', many, { maxMembers: 3, maxMemberBytes: MiB, maxExpandedBytes: MiB }));
  t.is(m.code, 'too_many_documents');
});

test('a tar whose header under-declares the data is refused as corrupt', async (t) => {
  const real = await pdf();
  const lying = tar([{ name: 'a.pdf', data: real, declaredSize: 10 }]);
  const r = await rejection(collect('tar', lying));
  t.is(r.code, 'document_unsupported');
});

test('corrupt and truncated archives are document_unsupported', async (t) => {
  const good = await zip([{ name: 'a.pdf', data: await pdf() }]);
  for (const bad of [good.subarray(0, good.length - 30), Buffer.from('PK\x03\x04 not really a zip')]) {
    t.is((await rejection(collect('zip', bad))).code, 'document_unsupported');
  }
  const goodTar = tar([{ name: 'a.pdf', data: await pdf() }], { gzip: true });
  t.is((await rejection(collect('tar', goodTar.subarray(0, goodTar.length - 40)))).code, 'document_unsupported');
});

test('sniffing decides by content: documents, archives, and disguised or unsupported files', async (t) => {
  t.deepEqual(await sniff(await pdf()), { kind: 'document', mime: 'application/pdf' });
  t.deepEqual(await sniff(png), { kind: 'document', mime: 'image/png' });
  t.deepEqual(await sniff(await zip([{ name: 'a.pdf', data: png }])), { kind: 'archive', format: 'zip' });
  t.deepEqual(await sniff(tar([{ name: 'a.png', data: png }])), { kind: 'archive', format: 'tar' });
  t.deepEqual(await sniff(tar([{ name: 'a.png', data: png }], { gzip: true })), { kind: 'archive', format: 'gzip' });
  t.deepEqual(await sniff(Buffer.alloc(0)), { kind: 'empty' });
  const exe = await sniff(elf);
  t.is(exe.kind, 'unsupported');
  const word = await sniff((await docx()).subarray(0, SNIFF_BYTES));
  t.is(word.kind, 'unsupported');
  t.regex((word as { what: string }).what, /wordprocessingml/);
  t.is((await sniff(Buffer.from('#!/bin/sh\nrm -rf /\n'))).kind, 'unsupported');
  t.is((await sniff(Buffer.from(`Rar!\x1a\x07\x01\x00${'\0'.repeat(64)}`, 'binary'))).kind, 'unsupported');
  t.is((await sniff(Buffer.from(`7z\xbc\xaf'\x1c\x00\x04${'\0'.repeat(64)}`, 'binary'))).kind, 'unsupported');
});

test('peek returns the head and still yields the whole stream', async (t) => {
  const data = Buffer.concat([await pdf(), Buffer.alloc(200_000, 7)]);
  const { head, stream } = await peek(Readable.from([data.subarray(0, 1000), data.subarray(1000)]), SNIFF_BYTES);
  t.is(head.length, SNIFF_BYTES);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  t.deepEqual(Buffer.concat(chunks), data);
  const short = await peek(Readable.from([png]), SNIFF_BYTES);
  t.deepEqual(short.head, png);
});

test(
  'folders and OS metadata count as entries: 70,000 of them beside one PDF is ' + 'too_many_documents, at once',
  async (t) => {
    const cd = await pdf('CD');
    const crowd = Array.from({ length: 2_000 }, (_, i) => ({
      name: i % 2 ? `__MACOSX/d${i}/._x` : `d${i}/`,
      data: Buffer.alloc(0),
    }));
    for (const kind of ['zip', 'tar'] as const) {
      const archive =
        kind === 'zip'
          ? await zip([...crowd, { name: 'cd.pdf', data: cd }])
          : tar(
              [
                ...crowd.map((c) => ({ ...c, ...(c.name.endsWith('/') ? { type: '5' } : {}) })),
                { name: 'cd.pdf', data: cd },
              ],
              { gzip: true },
            );
      const started = Date.now();
      const r = await rejection(
        collect(kind, archive, { maxMembers: 300, maxMemberBytes: 100 * MiB, maxExpandedBytes: 100 * MiB }),
      );
      t.is(r.code, 'too_many_documents', kind);
      t.regex(r.message, /1300 entries/, kind);
      t.true(Date.now() - started < onThisMachine(5_000), `${kind}: ${Date.now() - started} ms`);
    }
    // A package of 300 documents made on a Mac (each with its metadata twin, in a few folders) is fine.
    const mac = await zip(
      Array.from({ length: 300 }, (_, i) => [
        { name: `loan/p${i}.png`, data: png },
        { name: `__MACOSX/loan/._p${i}.png`, data: Buffer.from('junk') },
      ]).flat(),
    );
    t.is((await collect('zip', mac)).length, 300);
  },
);

test(
  'bytes of skipped tar entries count against the expansion bound: metadata junk, a folder ' + 'with a body',
  async (t) => {
    const junk = Buffer.alloc(8 * MiB, 0); // compresses to almost nothing
    for (const [what, entry] of [
      ['OS metadata', { name: '__MACOSX/._junk', data: junk }],
      ['a folder with a body', { name: 'folder/', type: '5', data: junk }],
    ] as const) {
      const archive = tar([entry, { name: 'cd.pdf', data: await pdf() }], { gzip: true });
      t.true(archive.length < MiB / 4, `${what}: ${archive.length} bytes`);
      const r = await rejection(collect('tar', archive));
      t.is(r.code, 'documents_too_large', what);
      t.regex(r.message, /bomb guard/, what);
    }
  },
);

test(
  'a GNU sparse file, which the tar parser would drop unseen, refuses the package as ' + 'document_unsupported',
  async (t) => {
    const r = await rejection(
      collect(
        'tar',
        tar([
          { name: 'holes.pdf', type: 'S', data: await pdf() },
          { name: 'cd.pdf', data: await pdf() },
        ]),
      ),
    );
    t.is(r.code, 'document_unsupported');
    t.regex(r.message, /holes\.pdf is not a regular file \(SparseFile\)/);
  },
);

test(
  'a zip is judged on its whole directory first: over a limit, no member is read; the directory ' + 'costs few reads',
  async (t) => {
    const images = await zip(Array.from({ length: 301 }, (_, i) => ({ name: `loan/p${i}.png`, data: png })));
    const source = bufferSource(images);
    let reads = 0;
    const counted = {
      size: source.size,
      readRange: (start: number, end: number) => {
        reads++;
        return source.readRange(start, end);
      },
    };
    let handed = 0;
    const r = await rejection(
      readZip('many.zip', counted, limits(images.length), async (m) => {
        handed++;
        m.stream.resume();
      }),
    );
    t.is(r.code, 'too_many_documents');
    t.is(handed, 0, 'no member was handed over');
    // 301 directory records, each a fixed part and a name, come from a handful of windowed reads.
    t.true(reads <= 5, `${reads} reads`);
    const bomb = await zip([
      { name: 'fine.pdf', data: await pdf() },
      { name: 'bomb.pdf', data: Buffer.alloc(40 * MiB, 0) },
    ]);
    handed = 0;
    t.is(
      (
        await rejection(
          readZip('bomb.zip', bufferSource(bomb), limits(bomb.length), async (m) => {
            handed++;
            m.stream.resume();
          }),
        )
      ).code,
      'documents_too_large',
    );
    t.is(handed, 0, 'the declared sizes refused it before fine.pdf was read');
  },
);

test(
  "what follows a tar's end-of-archive blocks is counted, not parsed: a folder with an 8 GiB body " +
    'is refused at once',
  async (t) => {
    // The parser reads the folder as having no body, so its zeros come after the archive's end; the parser
    // would concatenate them block by block (quadratic: 22 MB took it 12 s, the 82 MB allowed here minutes).
    const archive = junkTarGz('folder/', '5', 8 * 1024 * MiB - MiB, await pdf());
    const started = Date.now();
    const r = await rejection(collect('tar', archive));
    t.is(r.code, 'documents_too_large');
    t.true(Date.now() - started < onThisMachine(10_000), `${Date.now() - started} ms`);
  },
);
