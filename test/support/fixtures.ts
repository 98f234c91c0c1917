// Files the tests make for themselves: real PDFs and images, and packages both honest and hostile (zip
// bombs, traversal, links, encryption, nesting, disguised executables, Office files).
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import yazl from 'yazl';
import type { Finding } from '../../src/qc/finding.js';
import { renderReport } from '../../src/report/render.js';
import { releaseContent } from '../../src/reviews/report.js';

/**
 * A one-page PDF of `text`, a line per "\n". A title is a line of its own (classify.ts, titleClass): text
 * that makes a file unique goes on a line below it, or "Closing Disclosure de7e…" is no title.
 */
export async function pdf(text = 'Closing Disclosure'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

/**
 * A working document as the service issues it (the report renderer itself), for (review, release) under
 * `secret`, with one finding per code. `flattened` flattens its form, as printing or a "flatten" tool would.
 */
export async function workingDocument(o: {
  reviewId: string;
  releaseId: string;
  secret: string;
  flattened?: boolean;
  findings?: string[];
}): Promise<Buffer> {
  const findings = (o.findings ?? ['DOC-011']).map(
    (code): Finding => ({
      key: code,
      code,
      severity: 'high',
      category: 'documentation',
      title: `Finding ${code}`,
      summary: `Test finding ${code}.`,
      evidence: [],
      regulation: null,
    }),
  );
  const bytes = await renderReport(
    {
      reviewId: o.reviewId,
      releaseId: o.releaseId,
      referenceId: null,
      sandbox: false,
      ...releaseContent(findings),
      generatedAt: new Date(),
    },
    o.secret,
  );
  if (!o.flattened) return Buffer.from(bytes);
  const doc = await PDFDocument.load(bytes);
  doc.getForm().flatten();
  return Buffer.from(await doc.save());
}

const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
// A little-endian TIFF: one IFD with the minimum tags of a 1×1 bilevel image, its one byte of data after.
const tiffTags: [number, number, number][] = [
  [256, 3, 1],
  [257, 3, 1],
  [259, 3, 1],
  [262, 3, 1],
  [273, 4, 8 + 2 + 12 * 7 + 4],
  [278, 3, 1],
  [279, 4, 1],
];

/** Tiny but genuine images of every other accepted type, by their real signatures. */
export const images = {
  jpeg: Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP///////////////////////////////////////////////////////' +
      '///////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  webp: Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64'),
  bmp: Buffer.concat([
    Buffer.from('BM'),
    u32(58),
    u32(0),
    u32(54),
    u32(40),
    u32(1),
    u32(1),
    u16(1),
    u16(24),
    u32(0),
    u32(4),
    u32(2835),
    u32(2835),
    u32(0),
    u32(0),
    Buffer.from([0, 0, 255, 0]),
  ]),
  tiff: Buffer.concat([
    Buffer.from('II'),
    u16(42),
    u32(8),
    u16(tiffTags.length),
    ...tiffTags.map(([tag, type, value]) =>
      Buffer.concat([u16(tag), u16(type), u32(1), type === 3 ? Buffer.concat([u16(value), u16(0)]) : u32(value)]),
    ),
    u32(0),
    Buffer.from([0]),
  ]),
};

/** An Outlook message (.msg): a Compound File Binary container, by its signature. */
export const outlookMessage = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(1024)]);

/** A 7-Zip archive, by its signature. */
export const sevenZip = Buffer.from(`7z\xbc\xaf'\x1c\x00\x04${'\0'.repeat(64)}`, 'binary');

/** An Excel workbook (.xlsx): a zip whose entries say spreadsheet. */
export async function xlsx(): Promise<Buffer> {
  return zip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0"?><Types ' +
          'xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override ' +
          'PartName="/xl/workbook.xml" ' +
          'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
      ),
    },
    { name: '_rels/.rels', data: Buffer.from('<?xml version="1.0"?><Relationships/>') },
    { name: 'xl/workbook.xml', data: Buffer.from('<?xml version="1.0"?><workbook/>') },
  ]);
}

/** A 1×1 PNG. */
export const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** An ELF executable header: what a `.pdf` that is really a program starts with. */
export const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 0)]);

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Unix mode, e.g. 0o120777 for a symbolic link. */
  mode?: number;
  compress?: boolean;
}

export async function zip(entries: ZipEntry[]): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const e of entries) {
    // A name ending in "/" is a folder entry, as zip tools write them.
    if (e.name.endsWith('/')) z.addEmptyDirectory(e.name.slice(0, -1));
    // An empty member is stored, as zip tools store it: yazl starts a deflate stream (hundreds of KB of
    // zlib state) for every compressed member at once, and 35,000 empty ones took 7.5 GB to build.
    else
      z.addBuffer(e.data, e.name, {
        ...(e.mode !== undefined ? { mode: e.mode } : {}),
        compress: e.compress ?? e.data.length > 0,
      });
  }
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream as unknown as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** Marks every entry encrypted (general-purpose flag bit 0), as a password-protected zip has it. */
export function markEncrypted(archive: Buffer): Buffer {
  const out = Buffer.from(archive);
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50) out.writeUInt16LE(out.readUInt16LE(i + 6) | 1, i + 6);
    if (sig === 0x02014b50) out.writeUInt16LE(out.readUInt16LE(i + 8) | 1, i + 8);
  }
  return out;
}

/** Replaces a name inside the archive bytes (same length), e.g. to smuggle in `../` that writers refuse. */
export function renameMember(archive: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('names must have the same length');
  const out = Buffer.from(archive);
  const needle = Buffer.from(from);
  for (let i = out.indexOf(needle); i !== -1; i = out.indexOf(needle, i + 1)) Buffer.from(to).copy(out, i);
  return out;
}

export interface TarEntry {
  name: string;
  data?: Buffer;
  /** '0' file, '2' symlink, '1' hard link, '5' directory, '3' character device. */
  type?: string;
  linkName?: string;
  /** Lie about the size in the header. */
  declaredSize?: number;
}

/** One ustar header block: `size` may lie about the data that follows. */
export function tarHeader(name: string, size: number, type = '0', linkName?: string): Buffer {
  const header = Buffer.alloc(512, 0);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100, 'ascii');
  header.write('0000000\0', 108, 'ascii');
  header.write('0000000\0', 116, 'ascii');
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  header.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
    'ascii',
  );
  header.write('        ', 148, 'ascii');
  header.write(type, 156, 'ascii');
  if (linkName) header.write(linkName, 157, 100, 'utf8');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

/** A plain ustar writer, so tests can write what well-behaved tar tools refuse to. */
export function tar(entries: TarEntry[], opts: { gzip?: boolean } = {}): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0);
    blocks.push(
      tarHeader(e.name, e.declaredSize ?? data.length, e.type, e.linkName),
      data,
      Buffer.alloc((512 - (data.length % 512)) % 512, 0),
    );
  }
  blocks.push(Buffer.alloc(1024, 0));
  const archive = Buffer.concat(blocks);
  return opts.gzip ? gzipSync(archive) : archive;
}

/** A minimal .docx: a zip whose first entry is [Content_Types].xml, as Word writes it. */
export async function docx(): Promise<Buffer> {
  return zip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0"?><Types ' +
          'xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override ' +
          'PartName="/word/document.xml" ' +
          'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    },
    { name: '_rels/.rels', data: Buffer.from('<?xml version="1.0"?><Relationships/>') },
    { name: 'word/document.xml', data: Buffer.from('<?xml version="1.0"?><w:document/>') },
  ]);
}

export function bufferSource(buffer: Buffer) {
  return {
    size: buffer.length,
    readRange: (start: number, end: number) => Readable.from([buffer.subarray(start, end)]),
  };
}

/** Starts like a PDF (so it is accepted as one) but is not one: no reader can parse it. */
export const corruptPdf = Buffer.from(`%PDF-1.7\n${'this is not a PDF body '.repeat(20)}\n%%EOF\n`);

/** A PDF of `pages` pages whose first page carries `title`: slow enough to read that a test can act mid-analysis. */
export async function longPdf(title: string, pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    if (i === 1) page.drawText(title, { x: 72, y: 720, size: 14, font });
    for (let line = 0; line < 40; line++) {
      page.drawText(`Page ${i} line ${line}: the borrower agrees to the terms stated in this document.`, {
        x: 72,
        y: 680 - line * 15,
        size: 9,
        font,
      });
    }
  }
  return Buffer.from(await doc.save());
}

export interface FilledDecision {
  decision: string;
  comment?: string;
  cureDocument?: string;
}

/**
 * Fills a working document as an integrator would in a PDF viewer: a decision per finding key, saved with its
 * fields.
 */
export async function fillWorkingDocument(bytes: Buffer, decisions: Record<string, FilledDecision>): Promise<Buffer> {
  const doc = await PDFDocument.load(bytes);
  const formFields = doc.getForm();
  for (const [key, d] of Object.entries(decisions)) {
    const dropdown = formFields.getDropdown(`finding.${key}.decision`);
    // A value outside the choices needs an editable dropdown, as some viewers allow.
    if (!dropdown.getOptions().includes(d.decision)) dropdown.enableEditing();
    dropdown.select(d.decision);
    if (d.comment) formFields.getTextField(`finding.${key}.comment`).setText(d.comment);
    if (d.cureDocument) formFields.getTextField(`finding.${key}.cure_document`).setText(d.cureDocument);
  }
  return Buffer.from(await doc.save());
}
