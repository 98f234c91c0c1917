// Hostile files the corpus test uploads, written byte by byte: PDFs whose structure loops, nests or
// lies, images whose headers promise billions of pixels, and archives that expand, overlap or crowd.
// Each is small to send; the harm is in what a careless reader would do with it.
import { once } from 'node:events';
import { constants, createDeflate, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { tarHeader } from './fixtures.js';

const MiB = 1024 * 1024;

/** A PDF from numbered object bodies (1-based), with a correct xref table unless told otherwise. */
export function rawPdf(
  objects: (string | Buffer)[],
  o: { trailer?: string; xref?: (offsets: number[]) => string } = {},
): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    at += chunk.length;
  });
  const xref =
    o.xref?.(offsets) ??
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f ` +
      `\n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`;
  const trailer = o.trailer ?? `<< /Size ${objects.length + 1} /Root 1 0 R >>`;
  parts.push(Buffer.from(`${xref}trailer\n${trailer}\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A stream object body. */
function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
}

const catalog = '<< /Type /Catalog /Pages 2 0 R >>';
/**
 * `prefix` then `count` copies of `chunk`, deflated (zlib), made without holding what they inflate to: the
 * prefix and one chunk are each a fully flushed block (a block refers to nothing before it), the chunk's
 * block repeated, then an empty final block and the checksum.
 */
function deflatedRepeats(prefix: Buffer, chunk: Buffer, count: number): Buffer {
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { finishFlush: constants.Z_FULL_FLUSH });
  let a = 1;
  let b = 0;
  const sum = (bytes: Buffer) => {
    for (const byte of bytes) {
      a = (a + byte) % 65521;
      b = (b + a) % 65521;
    }
  };
  sum(prefix);
  for (let i = 0; i < count; i++) sum(chunk);
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  const block = flushed(chunk);
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...(prefix.length > 0 ? [flushed(prefix)] : []),
    ...Array<Buffer>(count).fill(block),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/** Deflated drawing operators, `mib` MiB of them once inflated (about a thousandth of that packed). */
function drawingBomb(mib: number): Buffer {
  return deflatedRepeats(Buffer.alloc(0), Buffer.alloc(MiB, '0 0 m 1 1 l S\n'), mib);
}
const onePage = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const text = (s: string) => stream('', Buffer.from(`BT /F1 12 Tf 72 700 Td (${s}) Tj ET`));
const font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const page = (extra = '', box = '[0 0 612 792]') =>
  `<< /Type /Page /Parent 2 0 R /MediaBox ${box} /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> ${extra} >> >>`;

export const hostilePdfs = {
  /** The trailer's /Prev names its own xref: a reader following the chain never ends. */
  xrefLoop(): Buffer {
    const objs = [catalog, onePage, page(), text('Closing Disclosure'), font];
    const plain = rawPdf(objs);
    const startxref = Number(/startxref\n(\d+)/.exec(plain.toString('latin1'))![1]);
    return rawPdf(objs, { trailer: `<< /Size 6 /Root 1 0 R /Prev ${startxref} >>` });
  },
  /** A page tree whose node lists itself among its kids. */
  pageTreeCycle(): Buffer {
    return rawPdf([catalog, '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>', page(), text('Loan Estimate'), font]);
  },
  /** 100,000 nested arrays: a recursive parser overflows its stack. */
  deepNesting(): Buffer {
    const depth = 100_000;
    return rawPdf([catalog, onePage, page(`/Deep ${'['.repeat(depth)}${']'.repeat(depth)}`), text('Note'), font]);
  },
  /** 10,000 pages: over the reader's page bound. */
  tenThousandPages(): Buffer {
    const n = 10_000;
    const kids = Array.from({ length: n }, (_, i) => `${i + 6} 0 R`).join(' ');
    const pages = Array.from({ length: n }, () => page());
    return rawPdf([catalog, `<< /Type /Pages /Kids [${kids}] /Count ${n} >>`, page(), text('Page'), font, ...pages]);
  },
  /** A page of 200 × 200 inches (past the PDF limit of 200 in.): rendering it whole would take gigabytes. */
  hugePage(): Buffer {
    return rawPdf([catalog, onePage, page('', '[0 0 1000000 1000000]'), text('Deed of Trust'), font]);
  },
  /** An image XObject declaring 50,000 × 50,000 pixels (10 GB decoded) from a few kilobytes. */
  hugeImage(): Buffer {
    const pixels = deflateSync(Buffer.alloc(4 * MiB, 0));
    const content = stream('', Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q'));
    return rawPdf([
      catalog,
      onePage,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject ' +
        '<< /Im1 5 0 R >> >> >>',
      content,
      stream(
        '/Type /XObject /Subtype /Image /Width 50000 /Height 50000 /ColorSpace /DeviceRGB ' +
          '/BitsPerComponent 8 /Filter /FlateDecode',
        pixels,
      ),
    ]);
  },
  /** A content stream that inflates to `mib` MiB of drawing operators. */
  flateBomb(mib = 512): Buffer {
    return rawPdf([catalog, onePage, page(), stream('/Filter /FlateDecode', drawingBomb(mib)), font]);
  },
  /** Three pages, the middle one a content stream that inflates to `mib` MiB; the others carry text. */
  flateBombBetween(mib: number): Buffer {
    const textPage = (contents: number) =>
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << ` +
      `/Font << /F1 9 0 R >> >> >>`;
    return rawPdf([
      catalog,
      '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>',
      textPage(6),
      textPage(7),
      textPage(8),
      text('Loan Estimate page one: Loan Amount $162,000'),
      stream('/Filter /FlateDecode', drawingBomb(mib)),
      text('Loan Estimate last page: Interest Rate 3.875%'),
      font,
    ]);
  },
  /**
   * A one-page PDF with text, beside an object stream that names the working document's marker first
   * and then inflates to `mib` MiB: a reader that decodes object streams without a budget (looking for
   * the marker, or parsing the file whole) holds all of it.
   */
  objectStreamBomb(mib = 256): Buffer {
    const header = '9 0 ';
    const objects = `${header}<< /LoanReviewWorkingDocument (v1) >>\n`;
    const packed = deflatedRepeats(Buffer.from(objects, 'latin1'), Buffer.alloc(MiB, ' '), mib);
    return rawPdf([
      catalog,
      onePage,
      page(),
      text('Appraisal Report'),
      font,
      stream(`/Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode`, packed),
    ]);
  },
  /** An xref table that claims a billion objects. */
  billionObjects(): Buffer {
    return rawPdf([catalog, onePage, page(), text('Appraisal'), font], {
      xref: (offsets) =>
        `xref\n0 1000000000\n0000000000 65535 f ` +
        `\n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`,
      trailer: '<< /Size 1000000000 /Root 1 0 R >>',
    });
  },
  /** Encrypted with a user password nobody gave us. */
  passwordProtected(): Buffer {
    const o = `<${'ab'.repeat(32)}>`;
    const u = `<${'cd'.repeat(32)}>`;
    return rawPdf(
      [
        catalog,
        onePage,
        page(),
        text('Encrypted'),
        font,
        `<< /Filter /Standard /V 2 /R 3 /Length 128 /O ${o} /U ${u} /P -3904 >>`,
      ],
      {
        trailer:
          '<< /Size 7 /Root 1 0 R /Encrypt 6 0 R /ID [<0123456789abcdef0123456789abcdef> ' +
          '<0123456789abcdef0123456789abcdef>] >>',
      },
    );
  },
  /** JavaScript to run on open and a launch action: a reader must never act on either. */
  scripted(): Buffer {
    return rawPdf([
      '<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert\\(1\\); ' +
        'this.exportDataObject\\({cName: "x", nLaunch: 2}\\)) >> /AA << /WC << /S /Launch /F (/bin/sh) >> >> >>',
      onePage,
      page(),
      text('Closing Disclosure'),
      font,
    ]);
  },
  /** An object that refers to itself as its own length, and a content array naming itself. */
  selfReference(): Buffer {
    return rawPdf([
      catalog,
      onePage,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [3 0 R 4 0 R] >>',
      '<< /Length 4 0 R >>\nstream\nBT ET\nendstream',
    ]);
  },
  /** Only the header. */
  headerOnly(): Buffer {
    return Buffer.from('%PDF-1.7\n');
  },
};

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])), 8 + data.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export const hostileImages = {
  /** A PNG header promising 50,000 × 50,000 RGBA pixels (10 GB), with a megabyte of real rows. */
  pngBomb(): Buffer {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(50_000, 0);
    ihdr.writeUInt32BE(50_000, 4);
    ihdr.writeUInt8(8, 8); // bit depth
    ihdr.writeUInt8(6, 9); // RGBA
    return Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.alloc(MiB, 0))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  },
  /** A JPEG whose frame header says 65,500 × 65,500 and whose data stops at once. */
  jpegBomb(): Buffer {
    const sof = Buffer.from([
      0xff, 0xc0, 0x00, 0x11, 0x08, 0xff, 0xdc, 0xff, 0xdc, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
    ]);
    return Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
      sof,
      Buffer.from([0xff, 0xd9]),
    ]);
  },
  /** A TIFF whose directory names itself as the next one: a page loop. */
  tiffLoop(): Buffer {
    const b = Buffer.alloc(8 + 2 + 8 * 12 + 4 + 4, 0);
    b.write('II', 0, 'ascii');
    b.writeUInt16LE(42, 2);
    b.writeUInt32LE(8, 4); // first IFD at 8
    const entries: [number, number, number, number][] = [
      [256, 4, 1, 1], // width 1
      [257, 4, 1, 1], // height 1
      [258, 3, 1, 8], // bits per sample
      [259, 3, 1, 1], // no compression
      [262, 3, 1, 1], // black is zero
      [273, 4, 1, 8 + 2 + 8 * 12 + 4], // strip offset
      [278, 4, 1, 1], // rows per strip
      [279, 4, 1, 1], // strip byte count
    ];
    b.writeUInt16LE(entries.length, 8);
    entries.forEach(([tag, type, count, value], i) => {
      const at = 10 + i * 12;
      b.writeUInt16LE(tag, at);
      b.writeUInt16LE(type, at + 2);
      b.writeUInt32LE(count, at + 4);
      if (type === 3) b.writeUInt16LE(value, at + 8);
      else b.writeUInt32LE(value, at + 8);
    });
    b.writeUInt32LE(8, 10 + entries.length * 12); // next IFD: this one again
    return b;
  },
  /** A TIFF header claiming 1,000,000 × 1,000,000 pixels. */
  tiffHuge(): Buffer {
    const img = hostileImages.tiffLoop();
    img.writeUInt32LE(1_000_000, 10 + 8);
    img.writeUInt32LE(1_000_000, 10 + 12 + 8);
    img.writeUInt32LE(0, 10 + 8 * 12); // a single directory
    return img;
  },
  /** A GIF of 65,535 × 65,535 with an empty image. */
  gifBomb(): Buffer {
    const header = Buffer.from('GIF89a', 'ascii');
    const screen = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00]);
    const image = Buffer.from([0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b]);
    return Buffer.concat([header, screen, image]);
  },
  /**
   * An RLE8 BMP of 2,000 × 2,000 pixels whose 8 MiB of runs declare 255 pixels each, all on its first row:
   * a billion pixels declared for a row of 2,000.
   */
  bmpRleRuns(): Buffer {
    const runs = Buffer.alloc(8 * MiB);
    for (let i = 0; i < runs.length; i += 2) runs[i] = 255;
    const palette = Buffer.alloc(256 * 4);
    for (let i = 0; i < 256; i++) palette.fill(i, i * 4, i * 4 + 3);
    const header = Buffer.alloc(54, 0);
    header.write('BM', 0, 'ascii');
    header.writeUInt32LE(54 + palette.length + runs.length, 2);
    header.writeUInt32LE(54 + palette.length, 10);
    header.writeUInt32LE(40, 14);
    header.writeInt32LE(2_000, 18);
    header.writeInt32LE(2_000, 22);
    header.writeUInt16LE(1, 26);
    header.writeUInt16LE(8, 28);
    header.writeUInt32LE(1, 30); // BI_RLE8
    header.writeUInt32LE(runs.length, 34);
    return Buffer.concat([header, palette, runs]);
  },
  /** A BMP whose header claims 50,000 × 50,000 at 32 bits and carries four bytes. */
  bmpBomb(): Buffer {
    const b = Buffer.alloc(54 + 4, 0);
    b.write('BM', 0, 'ascii');
    b.writeUInt32LE(b.length, 2);
    b.writeUInt32LE(54, 10);
    b.writeUInt32LE(40, 14);
    b.writeInt32LE(50_000, 18);
    b.writeInt32LE(50_000, 22);
    b.writeUInt16LE(1, 26);
    b.writeUInt16LE(32, 28);
    return b;
  },
};

/** A little-endian record of `size` bytes with these [offset, width, value] fields set. */
function record(size: number, fields: [number, 2 | 4, number][]): Buffer {
  const b = Buffer.alloc(size);
  for (const [at, width, value] of fields) {
    if (width === 2) b.writeUInt16LE(value, at);
    else b.writeUInt32LE(value, at);
  }
  return b;
}

/** Local-file and central-directory records of a zip, written by hand so entries can lie or overlap. */
export function overlappingZip(members: number, kernelBytes: number): Buffer {
  // One deflated kernel that every central-directory entry points at (the "non-recursive zip bomb").
  const data = deflateRawSync(Buffer.alloc(kernelBytes, 0));
  const crc = crc32(Buffer.alloc(kernelBytes, 0));
  const name = Buffer.from('kernel.pdf');
  // Version 2.0, deflate, checksum, packed and unpacked sizes, name length.
  const local = record(30, [
    [0, 4, 0x04034b50],
    [4, 2, 20],
    [8, 2, 8],
    [14, 4, crc],
    [18, 4, data.length],
    [22, 4, kernelBytes],
    [26, 2, name.length],
  ]);
  const central: Buffer[] = [];
  for (let i = 0; i < members; i++) {
    const n = Buffer.from(`doc-${i}.pdf`);
    // The same fields two bytes later, and every entry's local header at offset 0.
    central.push(
      record(46, [
        [0, 4, 0x02014b50],
        [4, 2, 20],
        [6, 2, 20],
        [10, 2, 8],
        [16, 4, crc],
        [20, 4, data.length],
        [24, 4, kernelBytes],
        [28, 2, n.length],
        [42, 4, 0],
      ]),
      n,
    );
  }
  const head = Buffer.concat([local, name, data]);
  const dir = Buffer.concat(central);
  const end = record(22, [
    [0, 4, 0x06054b50],
    [8, 2, members],
    [10, 2, members],
    [12, 4, dir.length],
    [16, 4, head.length],
  ]);
  return Buffer.concat([head, dir, end]);
}

/**
 * A tar.gz whose first member is `name` with `junkBytes` of zeros, then a PDF: written as gzip members
 * back to back (valid gzip), so gigabytes cost megabytes and milliseconds to make.
 */
export function junkTarGz(name: string, type: string, junkBytes: number, pdf: Buffer): Buffer {
  const zeros = gzipSync(Buffer.alloc(MiB, 0));
  const parts = [gzipSync(tarHeader(name, junkBytes, type))];
  for (let left = junkBytes; left > 0; left -= MiB) parts.push(left >= MiB ? zeros : gzipSync(Buffer.alloc(left, 0)));
  const pad = (512 - (pdf.length % 512)) % 512;
  parts.push(
    gzipSync(Buffer.concat([tarHeader('cd.pdf', pdf.length), pdf, Buffer.alloc(pad, 0), Buffer.alloc(1024, 0)])),
  );
  return Buffer.concat(parts);
}

/**
 * A zlib stream of `bytes` of empty stored deflate blocks: it inflates to nothing, one 5-byte block at a
 * time, so a reader that counts only what it inflates reads all of it.
 */
export function emptyDeflateBlocks(bytes: number): Buffer {
  const block = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);
  const blocks = Buffer.alloc(Math.floor(bytes / block.length) * block.length);
  for (let at = 0; at < blocks.length; at += block.length) block.copy(blocks, at);
  return Buffer.concat([Buffer.from([0x78, 0x9c]), blocks, Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff])]);
}

/** A PDF naming the working-document marker beside one stream of the given dictionary and data. */
export function markedPdfWithStream(dictionary: string, data: Buffer): Buffer {
  return rawPdf(
    [
      '<</Type /Catalog /Pages 2 0 R>>',
      '<</Type /Pages /Kids [3 0 R] /Count 1>>',
      '<</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]>>',
      '<</LoanReviewWorkingDocument (wd1.forged)>>',
      Buffer.concat([
        Buffer.from(`<<${dictionary} /Length ${data.length}>>\nstream\n`, 'latin1'),
        data,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    ],
    { trailer: '<</Size 6 /Root 1 0 R /Info 4 0 R>>' },
  );
}

/** A PDF whose one object stream is `bytes` of empty deflate blocks (the marker named beside it). */
export function emptyBlocksPdf(bytes: number): Buffer {
  return markedPdfWithStream('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', emptyDeflateBlocks(bytes));
}

/** A PDF of about 1 MiB whose cross-reference stream inflates to `inflated` bytes (1 GiB unless said). */
export async function xrefBombPdf(inflated = 1024 * MiB): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const zeros = Buffer.alloc(MiB);
  for (let written = 0; written < inflated; written += zeros.length) {
    if (!deflate.write(zeros)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return markedPdfWithStream('/Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode', Buffer.concat(chunks));
}
