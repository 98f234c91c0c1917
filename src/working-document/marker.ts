// The working document is the released report PDF itself: fillable, and stamped with a service marker
// (decisions.md, "Working document") so that an upload can be recognised as ours when renamed and cannot be
// forged. The marker
// is a custom entry of the PDF's document information dictionary holding the review id, the release id and
// an HMAC of both keyed by the server secret; viewers keep it when a filled form is saved.
import { secretsOf, signedByAny, type SecretRing } from '../secrets/ring.js';
import { createHmac } from 'node:crypto';
import { PDFDict, PDFDocument, PDFDropdown, PDFHexString, PDFName, PDFString, PDFTextField } from 'pdf-lib';
import { storableText } from '../db/text.js';
import { scanForMarker } from './marker-scan.js';
import { parseInThread } from './marker-parsing.js';

export interface WorkingDocumentMark {
  reviewId: string;
  releaseId: string;
}

export interface InspectedWorkingDocument extends WorkingDocumentMark {
  /** Fillable fields it still has; none means it was flattened, printed or scanned. */
  fieldCount: number;
}

const MARKER_NAME = 'LoanReviewWorkingDocument';
const MARKER_KEY = PDFName.of(MARKER_NAME);
const VERSION = 'wd1';

/** Larger PDFs are not parsed for a marker: a working document is a report of a few pages. */
export const WORKING_DOCUMENT_MAX_BYTES = 25 * 1024 * 1024;

function signature(mark: WorkingDocumentMark, secret: string): Buffer {
  return createHmac('sha256', secret).update(`working-document:${VERSION}:${mark.reviewId}:${mark.releaseId}`).digest();
}

export function markerValue(mark: WorkingDocumentMark, secret: string): string {
  return `${VERSION}.${mark.reviewId}.${mark.releaseId}.${signature(mark, secret).toString('base64url')}`;
}

/** The mark a marker value carries, or null when it is malformed or signed with none of our secrets. */
export function verifyMarker(value: string, secret: SecretRing<string>): WorkingDocumentMark | null {
  const m = /^wd1\.([0-9a-f-]{36})\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return null;
  const mark = { reviewId: m[1]!, releaseId: m[2]! };
  return signedByAny(Buffer.from(m[3]!, 'base64url'), secret, (s) => signature(mark, s)) ? mark : null;
}

/** Stamps a report PDF being rendered as the working document of a release. */
export function stampWorkingDocument(doc: PDFDocument, mark: WorkingDocumentMark, secret: string): void {
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  info.set(MARKER_KEY, PDFHexString.fromText(markerValue(mark, secret)));
}

/**
 * Recognises one of our working documents among uploaded PDF bytes: the verified mark and how many form
 * fields it still has. Anything else (no marker, a forged or damaged one, a PDF we cannot parse within
 * the budget of marker-parsing.ts) is an ordinary document: null. Only a PDF whose bytes or object
 * streams name the marker is parsed (marker-scan.ts), in a thread of its own: nearly every upload is
 * told apart without pdf-lib, and none holds the worker's event loop.
 */
export async function inspectWorkingDocument(
  bytes: Uint8Array,
  secret: SecretRing<string>,
): Promise<InspectedWorkingDocument | null> {
  if (bytes.length > WORKING_DOCUMENT_MAX_BYTES) return null;
  if ((await scanForMarker(bytes, MARKER_NAME)) === 'absent') return null;
  const reply = await parseInThread({ kind: 'inspect', bytes, secrets: [...secretsOf(secret)] });
  return reply.kind === 'inspect' ? reply.found : null;
}

/**
 * The values of a working document's form fields, by name: the chosen option of a dropdown, the text of a
 * text field (empty when unset). Fields of other kinds are left out; their values are not ours to read.
 * Parsed in a thread of its own, as inspectWorkingDocument; rejects when the parse fails or overruns.
 */
export async function readWorkingDocumentFields(bytes: Uint8Array): Promise<Map<string, string>> {
  const reply = await parseInThread({ kind: 'fields', bytes });
  if (reply.kind !== 'fields')
    throw new Error(
      `the working document's fields could not be read: ${reply.kind === 'failed' ? reply.reason : reply.kind}`,
    );
  return new Map(reply.fields);
}

/** inspectWorkingDocument's parse, run in the parser's thread (marker-thread.ts). */
export async function parseWorkingDocument(
  bytes: Uint8Array,
  secret: SecretRing<string>,
): Promise<InspectedWorkingDocument | null> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    return null;
  }
  const infoRef = doc.context.trailerInfo.Info;
  const info = infoRef ? doc.context.lookupMaybe(infoRef, PDFDict) : undefined;
  const raw = info?.lookup(MARKER_KEY);
  if (!(raw instanceof PDFHexString || raw instanceof PDFString)) return null;
  const mark = verifyMarker(raw.decodeText(), secret);
  if (!mark) return null;
  let fieldCount = 0;
  try {
    fieldCount = doc.getForm().getFields().length;
  } catch {
    fieldCount = 0;
  }
  return { ...mark, fieldCount };
}

/** readWorkingDocumentFields's parse, run in the parser's thread (marker-thread.ts). */
export async function parseWorkingDocumentFields(bytes: Uint8Array): Promise<Map<string, string>> {
  const doc = await PDFDocument.load(bytes, {
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: false,
  });
  const values = new Map<string, string>();
  for (const field of doc.getForm().getFields()) {
    // A reviewer's comment is kept, with any character the database cannot hold replaced.
    if (field instanceof PDFDropdown) values.set(field.getName(), storableText(field.getSelected()[0] ?? ''));
    else if (field instanceof PDFTextField) values.set(field.getName(), storableText(field.getText() ?? ''));
  }
  return values;
}
