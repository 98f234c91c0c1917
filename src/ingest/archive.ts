// Streaming readers for uploaded packages (zip; tar, optionally gzipped). Members are handed over one at
// a time as streams, never buffered whole. Every guard an untrusted archive needs is here: no path
// traversal, no links or devices, no encryption, declared and actual sizes checked, member count and
// expansion bounded (bomb guard). What a member *is* (and whether it nests an archive) is the caller's
// concern: it sniffs each member's stream.
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import yauzl from 'yauzl';
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

/** Counts bookkeeping across members: how many, and how many bytes in all. */
class Budget {
  private members = 0;
  private declared = 0;
  private expanded = 0;
  constructor(
    private readonly archiveName: string,
    private readonly limits: ArchiveLimits,
  ) {}

  admit(path: string, declaredSize: number): void {
    if (++this.members > this.limits.maxMembers) {
      throw new IngestRejection('too_many_documents', `${this.archiveName} holds more than ${this.limits.maxMembers} documents.`);
    }
    this.checkMember(path, declaredSize);
    // Refuse a bomb on what it declares, before inflating a byte of it; `spend` catches headers that lie.
    this.declared += declaredSize;
    if (this.declared > this.limits.maxExpandedBytes) throw this.bomb(path);
  }

  private bomb(path: string): IngestRejection {
    return new IngestRejection('documents_too_large', `${this.archiveName} expands beyond the allowed size (bomb guard) at member ${path}.`);
  }

  checkMember(path: string, size: number): void {
    if (size > this.limits.maxMemberBytes) {
      throw new IngestRejection('document_too_large', `${this.archiveName}: member ${path} is larger than the per-file limit.`);
    }
  }

  /** Called for every byte that actually comes out; the declared sizes may lie. */
  spend(path: string, bytes: number): void {
    this.expanded += bytes;
    if (this.expanded > this.limits.maxExpandedBytes) throw this.bomb(path);
  }

  /** A pass-through that enforces the declared size, the member limit and the expansion budget. */
  meter(path: string, declaredSize: number): Transform {
    let seen = 0;
    return new Transform({
      transform: (chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) => {
        seen += chunk.length;
        try {
          if (seen > declaredSize) throw unsupported(`${this.archiveName}: member ${path} is longer than its header says (corrupt archive).`);
          this.checkMember(path, seen);
          this.spend(path, chunk.length);
        } catch (err) {
          return done(err as Error);
        }
        done(null, chunk);
      },
      flush: (done: TransformCallback) => {
        done(seen === declaredSize ? null : unsupported(`${this.archiveName}: member ${path} is shorter than its header says (corrupt archive).`));
      },
    });
  }
}

function piped(source: Readable, meter: Transform): Readable {
  source.on('error', (err) => meter.destroy(err));
  return source.pipe(meter);
}

class SourceReader extends yauzl.RandomAccessReader {
  constructor(private readonly source: RandomAccessSource) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    return this.source.readRange(start, end);
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

/** Reads a zip through random access (its directory is at the end) and hands over each file member. */
export async function readZip(archiveName: string, source: RandomAccessSource, limits: ArchiveLimits, onMember: OnMember): Promise<void> {
  const budget = new Budget(archiveName, limits);
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromRandomAccessReader(
        new SourceReader(source),
        source.size,
        { lazyEntries: true, autoClose: true, strictFileNames: true, validateEntrySizes: true },
        (err, z) => (err ? reject(err) : resolve(z)),
      ),
    );
  } catch (err) {
    throw zipError(archiveName, err as Error);
  }
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        const cleanup = () => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          zip.off('error', onError);
        };
        const onEntry = (e: yauzl.Entry) => (cleanup(), resolve(e));
        const onEnd = () => (cleanup(), resolve(undefined));
        const onError = (e: Error) => (cleanup(), reject(e));
        zip.on('entry', onEntry).once('end', onEnd).once('error', onError);
        zip.readEntry();
      });
      if (!entry) return;
      const path = entry.fileName;
      if (path.endsWith('/') || isJunk(path)) continue;
      const problem = unsafePath(path);
      if (problem) throw unsupported(`${archiveName}: member ${path} ${problem}.`);
      const fileType = (entry.externalFileAttributes >>> 16) & 0o170000;
      if (fileType === 0o120000) throw unsupported(`${archiveName}: member ${path} is a symbolic link.`);
      if (fileType !== 0 && fileType !== 0o100000) throw unsupported(`${archiveName}: member ${path} is not a regular file.`);
      if (entry.isEncrypted()) throw unsupported(`${archiveName} is password-protected (member ${path}).`);
      budget.admit(path, entry.uncompressedSize);
      const raw = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
      );
      await onMember({ path, declaredSize: entry.uncompressedSize, stream: piped(raw, budget.meter(path, entry.uncompressedSize)) });
    }
  } catch (err) {
    zip.close();
    throw zipError(archiveName, err as Error);
  }
}

/** Reads a tar (gzipped or not: the parser detects it) as a stream and hands over each file member. */
export async function readTar(archiveName: string, source: Readable, limits: ArchiveLimits, onMember: OnMember): Promise<void> {
  const budget = new Budget(archiveName, limits);
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
  parser.on('end', () => {
    finished = true;
    notify();
  });
  const fail = (err: Error) => {
    failure ??= err;
    notify();
  };
  parser.on('error', fail);
  source.on('error', fail);
  source.pipe(parser);

  const corrupt = (err: Error) =>
    err instanceof IngestRejection ? err : unsupported(`${archiveName} is not a readable tar archive (${err.message}).`);
  try {
    for (;;) {
      if (failure) throw failure;
      const entry = queue.shift();
      if (!entry) {
        if (finished) break;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const path = entry.path;
      if (entry.type === 'Directory' || isJunk(path)) {
        entry.resume();
        continue;
      }
      const problem = unsafePath(path);
      if (problem) throw unsupported(`${archiveName}: member ${path} ${problem}.`);
      if (entry.type === 'SymbolicLink' || entry.type === 'Link') throw unsupported(`${archiveName}: member ${path} is a link.`);
      if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
        throw unsupported(`${archiveName}: member ${path} is not a regular file (${entry.type}).`);
      }
      const size = entry.size ?? 0;
      budget.admit(path, size);
      await onMember({ path, declaredSize: size, stream: piped(entry as unknown as Readable, budget.meter(path, size)) });
    }
    if (failure) throw failure;
  } catch (err) {
    source.unpipe(parser);
    source.destroy();
    throw corrupt(err as Error);
  }
}
