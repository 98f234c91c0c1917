// What a file is, decided by its first bytes (file-type), never by its name or declared MIME type.
import { fileTypeFromBuffer } from 'file-type';

/** Enough for every signature we accept, and for file-type to tell Office files from plain zips. */
export const SNIFF_BYTES = 64 * 1024;

export const DOCUMENT_TYPES = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/tiff': 'tif',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
} as const;
export type DocumentMime = keyof typeof DOCUMENT_TYPES;

export type ArchiveFormat = 'zip' | 'tar' | 'gzip';

export type Sniffed =
  | { kind: 'empty' }
  | { kind: 'document'; mime: DocumentMime }
  | { kind: 'archive'; format: ArchiveFormat }
  | { kind: 'unsupported'; what: string };

const ARCHIVES: Record<string, ArchiveFormat> = {
  'application/zip': 'zip',
  'application/x-tar': 'tar',
  'application/gzip': 'gzip',
};

/** Classifies a file from its first bytes (up to SNIFF_BYTES; fewer only when the file is shorter). */
export async function sniff(head: Uint8Array): Promise<Sniffed> {
  if (head.length === 0) return { kind: 'empty' };
  const type = await fileTypeFromBuffer(head);
  if (!type) return { kind: 'unsupported', what: 'an unrecognised type (text, script or unknown binary)' };
  if (type.mime in DOCUMENT_TYPES) return { kind: 'document', mime: type.mime as DocumentMime };
  const archive = ARCHIVES[type.mime];
  if (archive) return { kind: 'archive', format: archive };
  return { kind: 'unsupported', what: `${type.mime} (.${type.ext})` };
}
