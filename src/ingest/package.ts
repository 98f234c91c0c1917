// Turns staged uploads (whole files in MinIO under uploads/) into the documents of a review: each upload is
// sniffed; a package is unpacked member by member, every member hashed on the way and written to a
// temporary object. A file that is itself a document was hashed as it was staged (by the API's upload or
// the source fetch), so it is neither read again nor rewritten: its staged object is its temporary one.
// Nothing becomes a document until the whole submission passes (`commitDocuments`: the transient tag is
// dropped, no copy); a rejection removes every temporary object it made. Duplicates within a submission
// collapse to one.
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { readTar, readZip, type ArchiveLimits } from './archive.js';
import { peek } from '../streams/peek.js';
import { Capture } from '../streams/capture.js';
import type { InspectedWorkingDocument } from '../working-document/marker.js';
import { checkReviewLimits, IngestRejection } from './rejection.js';
import { unpackedKey } from '../storage/keys.js';
import { sniff, SNIFF_BYTES, type DocumentMime } from './sniff.js';
import type { Measured, StagedFile } from '../reviews/staged-file.js';
import {
  keepObject,
  objectSize,
  putStream,
  readBuffer,
  readObject,
  readObjectRange,
  removeObjects,
  type Storage,
} from '../storage/minio.js';

export interface IngestLimits {
  maxFileBytes: number;
  maxReviewDocuments: number;
  maxReviewBytes: number;
}

export interface IngestedDocument {
  sha256: string;
  size: number;
  mime: DocumentMime;
  filename: string;
  declaredType: string | null;
  source: 'upload' | 'url' | 'archive_member';
  /** For an archive member: the package it came from. */
  sourceDetail: string | null;
  /** Where its bytes are until committed. */
  tempKey: string;
  /** Set when the file is one of the service's working documents (a released report, marked). */
  workingDocument: InspectedWorkingDocument | null;
}

/** Recognises working documents among PDFs, and decides whether a submission may carry them. */
export interface WorkingDocumentCheck {
  maxBytes: number;
  inspect: (pdf: Buffer) => Promise<InspectedWorkingDocument | null>;
  /** Throws an IngestRejection when this submission may not carry the document. */
  admit: (doc: { filename: string; workingDocument: InspectedWorkingDocument }) => void;
}

/** What ingest knows of a document before its bytes are counted. */
type DocumentFacts = Omit<IngestedDocument, 'sha256' | 'size' | 'tempKey' | 'workingDocument'>;

class Submission {
  readonly documents: IngestedDocument[] = [];
  readonly tempKeys: string[] = [];
  private readonly seen = new Set<string>();
  private bytes = 0;

  constructor(
    private readonly storage: Storage,
    private readonly reviewId: string,
    private readonly limits: IngestLimits,
    private readonly knownHashes: ReadonlySet<string>,
    private readonly alreadyOnReview: { documents: number; bytes: number },
    private readonly workingDocuments: WorkingDocumentCheck | undefined,
  ) {}

  /** Hashes a document into a temporary object and keeps it unless it repeats one already seen. */
  async keep(stream: Readable, doc: DocumentFacts): Promise<void> {
    const tempKey = unpackedKey(this.reviewId);
    this.tempKeys.push(tempKey);
    const tooLarge = () =>
      new IngestRejection('document_too_large', `${doc.filename} is larger than the per-file limit.`);
    // A PDF small enough to be a working document is also kept in memory, to look for our marker.
    const capture = new Capture(this.workingDocumentCheck(doc)?.maxBytes ?? 0);
    const [, content] = await Promise.all([
      pipeline(stream, capture),
      putStream(this.storage, tempKey, capture, doc.mime, { maxBytes: this.limits.maxFileBytes, tooLarge }),
    ]);
    const kept = await this.admit(doc, content, tempKey, capture.captured() ?? undefined);
    if (!kept) {
      await removeObjects(this.storage, [tempKey]);
      this.tempKeys.splice(this.tempKeys.indexOf(tempKey), 1);
    }
  }

  /**
   * Keeps a staged file that is a document as it stands: measured when it was staged, so its object is
   * its temporary one (left to the submission's staged objects to remove, not to this submission's).
   */
  async keepStaged(file: StagedFile & { content: Measured }, doc: DocumentFacts, read?: Buffer): Promise<void> {
    const check = this.workingDocumentCheck(doc);
    const bytes =
      check && file.content.size <= check.maxBytes && !this.repeats(file.content.sha256)
        ? (read ?? (await readBuffer(this.storage, file.key)))
        : undefined;
    await this.admit(doc, file.content, file.key, bytes);
  }

  private workingDocumentCheck(doc: DocumentFacts): WorkingDocumentCheck | undefined {
    return doc.mime === 'application/pdf' ? this.workingDocuments : undefined;
  }

  /** Whether a document of this hash is in the submission already, or on the review. */
  private repeats(sha256: string): boolean {
    return this.seen.has(sha256) || this.knownHashes.has(sha256);
  }

  /**
   * Counts a hashed document against the limits and keeps it; false when it repeats one already seen. A
   * repeat is dropped before it is inspected: a package of one crafted PDF a thousand times is inspected
   * once.
   */
  private async admit(
    doc: DocumentFacts,
    content: Measured,
    tempKey: string,
    pdfBytes: Buffer | undefined,
  ): Promise<boolean> {
    const { sha256, size } = content;
    if (this.repeats(sha256)) {
      this.seen.add(sha256);
      return false;
    }
    this.seen.add(sha256);
    const check = this.workingDocumentCheck(doc);
    const workingDocument = check && pdfBytes ? await check.inspect(pdfBytes) : null;
    if (check && workingDocument) check.admit({ filename: doc.filename, workingDocument });
    this.bytes += size;
    checkReviewLimits(
      {
        documents: this.alreadyOnReview.documents + this.documents.length + 1,
        bytes: this.alreadyOnReview.bytes + this.bytes,
      },
      this.limits,
    );
    this.documents.push({ ...doc, sha256, size, tempKey, workingDocument });
    return true;
  }

  /** Every hash offered, duplicates and known ones included (to tell "all duplicates" apart). */
  get offered(): number {
    return this.seen.size;
  }
}

export interface UnpackOptions {
  storage: Storage;
  reviewId: string;
  limits: IngestLimits;
  /** Hashes of documents the review already has (add-documents): such files are not added again. */
  knownHashes?: ReadonlySet<string>;
  alreadyOnReview?: { documents: number; bytes: number };
  workingDocuments?: WorkingDocumentCheck;
}

export interface UnpackResult {
  documents: IngestedDocument[];
  /** Distinct files offered, including ones the review already had. */
  offered: number;
}

/** Validates and unpacks a submission; throws IngestRejection (after cleaning up) when any part is refused. */
export async function unpackSubmission(files: StagedFile[], o: UnpackOptions): Promise<UnpackResult> {
  const submission = new Submission(
    o.storage,
    o.reviewId,
    o.limits,
    o.knownHashes ?? new Set(),
    o.alreadyOnReview ?? { documents: 0, bytes: 0 },
    o.workingDocuments,
  );
  try {
    if (files.length === 0) throw new IngestRejection('document_required', 'Supply at least one document.');
    for (const file of files) await unpackFile(file, submission, o);
    // Packages holding only skipped entries (Finder metadata) offer nothing.
    if (submission.offered === 0) throw new IngestRejection('document_required', 'The submission holds no document.');
    return { documents: submission.documents, offered: submission.offered };
  } catch (err) {
    await removeObjects(o.storage, submission.tempKeys).catch(() => {});
    throw err;
  }
}

/** An upload at most this big is read in one request (most single documents are far smaller). */
const WHOLE_READ_BYTES = 1024 * 1024;

async function unpackFile(file: StagedFile, submission: Submission, o: UnpackOptions): Promise<void> {
  const size = file.content?.size ?? (await objectSize(o.storage, file.key));
  if (size === 0) throw new IngestRejection('document_required', `${file.filename} is empty.`);
  if (size > o.limits.maxFileBytes)
    throw new IngestRejection('document_too_large', `${file.filename} is larger than the per-file limit.`);
  // A small upload is read whole at once: its head to sniff and, a PDF, all of it for the working-document
  // check, in one request to the store where there would be two.
  const whole = file.content && size <= WHOLE_READ_BYTES ? await readBuffer(o.storage, file.key) : undefined;
  const head = whole
    ? whole.subarray(0, SNIFF_BYTES)
    : await buffer(readObjectRange(o.storage, file.key, 0, Math.min(size, SNIFF_BYTES)));
  const kind = await sniff(head);
  const base = { filename: file.filename, declaredType: file.declaredType, source: file.source, sourceDetail: null };
  switch (kind.kind) {
    case 'empty':
      throw new IngestRejection('document_required', `${file.filename} is empty.`);
    case 'unsupported':
      throw new IngestRejection(
        'document_unsupported',
        `${file.filename} is ${kind.what}; send PDF or image documents, or a zip/tar package of them.`,
      );
    case 'document':
      if (file.content)
        await submission.keepStaged({ ...file, content: file.content }, { ...base, mime: kind.mime }, whole);
      else await submission.keep(await readObject(o.storage, file.key), { ...base, mime: kind.mime });
      return;
    case 'archive': {
      const limits: ArchiveLimits = {
        maxMembers: o.limits.maxReviewDocuments,
        maxMemberBytes: o.limits.maxFileBytes,
        maxExpandedBytes: Math.min(10 * size, o.limits.maxReviewBytes),
      };
      const onMember = async (member: { path: string; stream: Readable }) => {
        const { head: memberHead, stream } = await peek(member.stream, SNIFF_BYTES);
        const memberKind = await sniff(memberHead);
        const name = `${file.filename}: ${member.path}`;
        if (memberKind.kind !== 'document') stream.destroy();
        if (memberKind.kind === 'empty') throw new IngestRejection('document_required', `${name} is empty.`);
        if (memberKind.kind === 'archive')
          throw new IngestRejection(
            'document_unsupported',
            `${name} is an archive inside an archive; nested archives are not accepted.`,
          );
        if (memberKind.kind === 'unsupported')
          throw new IngestRejection(
            'document_unsupported',
            `${name} is ${memberKind.what}; packages may hold only PDF and image documents.`,
          );
        if (memberKind.kind !== 'document') return;
        await submission.keep(stream, {
          filename: member.path.split('/').pop() || member.path,
          declaredType: null,
          source: 'archive_member',
          sourceDetail: file.filename,
          mime: memberKind.mime,
        });
      };
      if (kind.format === 'zip') {
        await readZip(
          file.filename,
          { size, readRange: (start, end) => readObjectRange(o.storage, file.key, start, end) },
          limits,
          onMember,
        );
      } else {
        await readTar(file.filename, await readObject(o.storage, file.key), limits, onMember);
      }
      return;
    }
  }
}

/**
 * Keeps accepted documents for good and returns their keys: each arrival stays where it was written under
 * uploads/, its transient tag dropped (keys.ts), so no bytes are copied.
 */
export async function commitDocuments(storage: Storage, documents: IngestedDocument[]): Promise<string[]> {
  const keys: string[] = [];
  for (const d of documents) {
    // Dropping the tag again on a retried commit changes nothing.
    await keepObject(storage, d.tempKey);
    keys.push(d.tempKey);
  }
  return keys;
}
