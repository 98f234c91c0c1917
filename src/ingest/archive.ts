// Streaming readers for uploaded packages (zip; tar, optionally gzipped). Members are handed over one at
// a time as streams, never buffered whole. Every guard an untrusted archive needs is here: no path
// traversal, no links or devices, no encryption, declared and actual sizes checked, member count and
// expansion bounded (bomb guard). What a member *is* (and whether it nests an archive) is the caller's
// concern: it sniffs each member's stream.
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import yauzl from 'yauzl';
import { peek } from '../streams/peek.js';
import { IngestRejection } from './rejection.js';

export interface ArchiveLimits {
  /** Members (files) an archive may hold. */
  maxMembers: number;
  /** Uncompressed size of one member. */
  maxMemberBytes: number;
  /** Uncompressed size of all members together: min(10 × archive size, per-review limit). */
  maxExpandedBytes: number;
}

export interface ArchiveMember {
  /** The member's path inside the archive, as given (for messages; never used as a file system path). */
  path: string;
  declaredSize: number;
  /** The member's bytes; errors if more arrive than declared or allowed. Must be consumed or destroyed. */
  stream: Readable;
}

/** A source that can be read at any offset (the uploaded object in MinIO, or a file). */
export interface RandomAccessSource {
  size: number;
  /** Bytes [start, end). */
  readRange(start: number, end: number): Readable;
}

export type OnMember = (member: ArchiveMember) => Promise<void>;

/** Finder and OS metadata that zip tools add beside the real files; not documents, not an error. */
function isJunk(path: string): boolean {
  return path.startsWith('__MACOSX/') || /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(path);
}

function unsafePath(path: string): string | undefined {
  if (path.includes('\0')) return 'has a NUL byte in its name';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'has an absolute path';
  if (path.split(/[\\/]/).includes('..')) return 'tries to leave the archive (path traversal)';
  return undefined;
}

const unsupported = (message: string) => new IngestRejection('document_unsupported', message);

/**
 * Entries of any kind (directories, OS metadata, links as well as files) an archive may hold, per member it
 * may hold: a Finder zip has a `__MACOSX/._x` twin and a folder or two per file; 70,000 empty ones are no
 * package, and reading them costs as much as reading documents.
 */
export const ENTRIES_PER_MEMBER = 4;
const ENTRY_ALLOWANCE = 100;

/** Counts bookkeeping across members: how many, and how many bytes in all. */
class Budget {
  private entries = 0;
  private members = 0;
  private declared = 0;
  private expanded = 0;
  constructor(
    private readonly archiveName: string,
    private readonly limits: ArchiveLimits,
  ) {}

  /** Every entry, skipped or not, before anything else is done with it. */
  enter(): void {
    const most = this.limits.maxMembers * ENTRIES_PER_MEMBER + ENTRY_ALLOWANCE;
    if (++this.entries > most) {
      throw new IngestRejection(
        'too_many_documents',
        `${this.archiveName} holds more than ${most} entries (folders and metadata included).`,
      );
    }
  }

  /**
   * An entry skipped (a folder, OS metadata) whose bytes must still be read past, as in a tar stream: they
   * count against the expansion budget like a document's, declared first, then as they come.
   */
  skip(path: string, declaredSize: number, body: Readable): Promise<void> {
    this.declared += declaredSize;
    if (this.declared > this.limits.maxExpandedBytes) return Promise.reject(this.bomb(`at member ${path}`));
    return new Promise((resolve, reject) => {
      body.on('data', (chunk: Buffer) => {
        try {
          this.spend(path, chunk.length);
        } catch (err) {
          body.destroy();
          reject(err as Error);
        }
      });
      body.once('end', resolve);
      body.once('error', reject);
    });
  }

  admit(path: string, declaredSize: number): void {
    if (++this.members > this.limits.maxMembers) {
      throw new IngestRejection(
        'too_many_documents',
        `${this.archiveName} holds more than ${this.limits.maxMembers} documents.`,
      );
    }
    this.checkMember(path, declaredSize);
    // Refuse a bomb on what it declares, before inflating a byte of it; `spend` catches headers that lie.
    this.declared += declaredSize;
    if (this.declared > this.limits.maxExpandedBytes) throw this.bomb(`at member ${path}`);
  }

  /** The bomb guard's refusal, `where` the expansion went past the budget ("at member x.pdf"). */
  bomb(where: string): IngestRejection {
    return new IngestRejection(
      'documents_too_large',
      `${this.archiveName} expands beyond the allowed size (bomb guard) ${where}.`,
    );
  }

  checkMember(path: string, size: number): void {
    if (size > this.limits.maxMemberBytes) {
      throw new IngestRejection(
        'document_too_large',
        `${this.archiveName}: member ${path} is larger than the per-file limit.`,
      );
    }
  }

  /** Called for every byte that actually comes out; the declared sizes may lie. */
  spend(path: string, bytes: number): void {
    this.expanded += bytes;
    if (this.expanded > this.limits.maxExpandedBytes) throw this.bomb(`at member ${path}`);
  }

  /** A pass-through that enforces the declared size, the member limit and the expansion budget. */
  meter(path: string, declaredSize: number): Transform {
    let seen = 0;
    return new Transform({
      transform: (chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) => {
        seen += chunk.length;
        try {
          if (seen > declaredSize)
            throw unsupported(`${this.archiveName}: member ${path} is longer than its header says (corrupt archive).`);
          this.checkMember(path, seen);
          this.spend(path, chunk.length);
        } catch (err) {
          return done(err as Error);
        }
        done(null, chunk);
      },
      flush: (done: TransformCallback) => {
        done(
          seen === declaredSize
            ? null
            : unsupported(`${this.archiveName}: member ${path} is shorter than its header says (corrupt archive).`),
        );
      },
    });
  }
}

function piped(source: Readable, meter: Transform): Readable {
  source.on('error', (err) => meter.destroy(err));
  return source.pipe(meter);
}

/** Reads up to this many bytes at a time when yauzl asks for a small range (a directory record). */
const DIRECTORY_WINDOW = 256 * 1024;

class SourceReader extends yauzl.RandomAccessReader {
  // yauzl reads the central directory one record at a time, 46 bytes and then the name: one MinIO
  // request each made a 70,000-entry directory take seconds to refuse. Small reads come from a window.
  private window: { start: number; end: number; bytes: Promise<Buffer> } | undefined;

  constructor(private readonly source: RandomAccessSource) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (end - start > DIRECTORY_WINDOW / 4) return this.source.readRange(start, end);
    let w = this.window;
    if (!w || start < w.start || end > w.end) {
      const windowEnd = Math.min(this.source.size, start + DIRECTORY_WINDOW);
      if (end > windowEnd) return this.source.readRange(start, end);
      const bytes = buffer(this.source.readRange(start, windowEnd));
      bytes.catch(() => {}); // each read below reports it
      w = this.window = { start, end: windowEnd, bytes };
    }
    const from = w;
    const out = new PassThrough();
    from.bytes.then(
      (b) => out.end(b.subarray(start - from.start, end - from.start)),
      (err: Error) => out.destroy(err),
    );
    return out;
  }
}

function zipError(archiveName: string, err: Error): IngestRejection {
  if (err instanceof IngestRejection) return err;
  const m = err.message;
  if (/invalid relative path|absolute path|invalid characters/i.test(m)) {
    return unsupported(`${archiveName}: a member tries to leave the archive (${m}).`);
  }
  if (/encrypt/i.test(m)) return unsupported(`${archiveName} is password-protected.`);
  return unsupported(`${archiveName} is not a readable zip archive (${m}).`);
}

/**
 * Reads a zip through random access (its directory is at the end) and hands over each file member. The
 * whole directory is judged first (entries, documents, declared sizes, paths, links, encryption), so a
 * package over a limit is refused before a byte of it is inflated or kept.
 */
export async function readZip(
  archiveName: string,
  source: RandomAccessSource,
  limits: ArchiveLimits,
  onMember: OnMember,
): Promise<void> {
  const budget = new Budget(archiveName, limits);
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromRandomAccessReader(
        new SourceReader(source),
        source.size,
        { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
        (err, z) => (err ? reject(err) : resolve(z)),
      ),
    );
  } catch (err) {
    throw zipError(archiveName, err as Error);
  }
  try {
    const members: yauzl.Entry[] = [];
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        const cleanup = () => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          zip.off('error', onError);
        };
        const onEntry = (e: yauzl.Entry) => {
          cleanup();
          resolve(e);
        };
        const onEnd = () => {
          cleanup();
          resolve(undefined);
        };
        const onError = (e: Error) => {
          cleanup();
          reject(e);
        };
        zip.on('entry', onEntry).once('end', onEnd).once('error', onError);
        zip.readEntry();
      });
      if (!entry) break;
      budget.enter();
      const path = entry.fileName;
      // A zip's skipped entries are never inflated: only counted.
      if (path.endsWith('/') || isJunk(path)) continue;
      const problem = unsafePath(path);
      if (problem) throw unsupported(`${archiveName}: member ${path} ${problem}.`);
      const fileType = (entry.externalFileAttributes >>> 16) & 0o170000;
      if (fileType === 0o120000) throw unsupported(`${archiveName}: member ${path} is a symbolic link.`);
      if (fileType !== 0 && fileType !== 0o100000)
        throw unsupported(`${archiveName}: member ${path} is not a regular file.`);
      if (entry.isEncrypted()) throw unsupported(`${archiveName} is password-protected (member ${path}).`);
      budget.admit(path, entry.uncompressedSize);
      members.push(entry);
    }
    for (const entry of members) {
      const raw = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
      );
      await onMember({
        path: entry.fileName,
        declaredSize: entry.uncompressedSize,
        stream: piped(raw, budget.meter(entry.fileName, entry.uncompressedSize)),
      });
    }
  } catch (err) {
    throw zipError(archiveName, err as Error);
  } finally {
    zip.close();
  }
}

/** Reads a tar (gzipped or not, told by its first bytes) as a stream and hands over each file member. */
export async function readTar(
  archiveName: string,
  packed: Readable,
  limits: ArchiveLimits,
  onMember: OnMember,
): Promise<void> {
  const budget = new Budget(archiveName, limits);
  // Inflated here, not by the parser, so every byte of the tar stream is counted: what the parser skips
  // unseen (a folder's body, anything after the end-of-archive blocks) would otherwise be inflated without
  // bound. The whole stream may hold the members' budget plus a header and padding per entry.
  const { head, stream: raw } = await peek(packed, 2);
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  const source = gzipped ? piped(raw, createGunzip()) : raw;
  const most = limits.maxExpandedBytes + (limits.maxMembers * ENTRIES_PER_MEMBER + ENTRY_ALLOWANCE + 2) * 1024 + 10_240;
  let total = 0;
  const whole = piped(
    source,
    new Transform({
      transform: (chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) => {
        total += chunk.length;
        done(total > most ? budget.bomb('in its tar stream') : null, chunk);
      },
    }),
  );
  const parser = new Parser({ strict: true });
  const queue: ReadEntry[] = [];
  let finished = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  parser.on('entry', (entry: ReadEntry) => {
    queue.push(entry);
    notify();
  });
  // The stream must be read to its end: bytes after the end-of-archive blocks count against the bound
  // too. The parser is not given them: it buffers what follows its end by concatenation (quadratic), so
  // 20 MB of zeros after a folder entry took it 9 s. They are drained here, counted by `whole`.
  let drained = false;
  parser.on('eof', () => {
    whole.unpipe(parser);
    parser.end();
    whole.resume();
  });
  whole.once('end', () => {
    drained = true;
    notify();
  });
  parser.on('end', () => {
    finished = true;
    notify();
  });
  const fail = (err: Error) => {
    failure ??= err;
    notify();
  };
  parser.on('error', fail);
  // Entries the parser drops unseen (a GNU sparse file, an oversized extended header) are no documents: the
  // package is refused as any holding a member of an unsupported kind, not read as if they were absent.
  parser.on('ignoredEntry', (entry: ReadEntry) =>
    fail(unsupported(`${archiveName}: member ${entry.path} is not a regular file (${entry.type}).`)),
  );
  // The parser never hears of a failure before it (inflating, the byte bound): the member being read would
  // wait forever for the rest of its bytes, so it is ended with the error.
  let current: ReadEntry | undefined;
  whole.on('error', (err) => {
    fail(err);
    current?.emit('error', err);
  });
  whole.pipe(parser);

  const corrupt = (err: Error) =>
    err instanceof IngestRejection
      ? err
      : unsupported(`${archiveName} is not a readable tar archive (${err.message}).`);
  try {
    for (;;) {
      if (failure) throw failure;
      const entry = queue.shift();
      if (!entry) {
        if (finished && drained) break;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      budget.enter();
      const path = entry.path;
      if (entry.type === 'Directory' || isJunk(path)) {
        // A tar stream must be read past them: a folder "with a body" or 8 GiB of metadata is a bomb too.
        current = entry;
        await budget.skip(path, entry.size ?? 0, entry as unknown as Readable);
        current = undefined;
        continue;
      }
      const problem = unsafePath(path);
      if (problem) throw unsupported(`${archiveName}: member ${path} ${problem}.`);
      if (entry.type === 'SymbolicLink' || entry.type === 'Link')
        throw unsupported(`${archiveName}: member ${path} is a link.`);
      if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
        throw unsupported(`${archiveName}: member ${path} is not a regular file (${entry.type}).`);
      }
      const size = entry.size ?? 0;
      budget.admit(path, size);
      current = entry;
      await onMember({
        path,
        declaredSize: size,
        stream: piped(entry as unknown as Readable, budget.meter(path, size)),
      });
      current = undefined;
    }
    if (failure) throw failure;
  } catch (err) {
    whole.unpipe(parser);
    whole.destroy();
    packed.destroy();
    throw corrupt(err as Error);
  }
}
