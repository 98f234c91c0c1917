// OCR of scanned material: every image type we accept, multi-page TIFF, PDF pages without a text layer,
// pages read two at a time by the worker pool, and the inputs that must come back unreadable instead of
// crashing or exhausting memory. Images are drawn with a font from the dejavu-fonts-ttf package
// (support/scan-image.ts), so no system font or binary fixture is needed.
import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { createCanvas, SvgExportFlag } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { readFile, tesseractOcr, type Ocr } from '../../src/qc/reading/document.js';
import { decodeBmp, MAX_IMAGE_FRAMES } from '../../src/qc/reading/images.js';
import { configureOcr, ocrImage, ocrPdfPages, terminateOcr, type OcrRead } from '../../src/qc/reading/ocr.js';
import { OCR_PAGE_WIDTH, type PageText } from '../../src/qc/reading/page.js';
import { drawScan, SCAN_FONT } from '../support/scan-image.js';

// Two workers, as the service runs on two cores: every test here goes through the pool.
configureOcr({ workers: 2 });
test.after.always(() => terminateOcr());

const sample = drawScan(['CLOSING DISCLOSURE', 'Loan Amount $162,000']);
const raw = () => sharp(sample.rgba, { raw: { width: sample.width, height: sample.height, channels: 4 } });

function onlyPage(t: ExecutionContext, read: OcrRead): PageText {
  if (!read.readable) throw new Error(`unreadable: ${read.reason}`);
  t.is(read.pages.length, 1);
  return read.pages[0]!;
}

function assertSample(t: ExecutionContext, page: PageText) {
  const text = page.text.toLowerCase();
  for (const word of ['closing', 'disclosure', 'loan', 'amount', '$162,000'])
    t.true(text.includes(word), `"${word}" in ${JSON.stringify(page.text)}`);
  t.is(page.source, 'ocr');
  t.true((page.confidence ?? 0) > 70, `confidence ${page.confidence}`);
  for (const item of page.items) {
    t.true(item.x >= 0 && item.x + item.width <= OCR_PAGE_WIDTH + 0.5, `x of ${item.text}`);
    t.true(item.height > 0 && item.width > 0, `size of ${item.text}`);
  }
  const closing = page.items.find((i) => i.text === 'CLOSING');
  const amount = page.items.find((i) => i.text === 'Amount');
  if (!closing || !amount) throw new Error(`words missing from ${JSON.stringify(page.items)}`);
  // Bottom-left origin: the line drawn higher on the image has the larger y. The strip is 600 px for
  // 1700 px of width, so it is 216 points tall; the first baseline is 150 px (54 pt) from the top.
  t.true(closing.y > amount.y, 'first line above second');
  t.true(Math.abs(closing.y - (216 - 54)) < 3, `baseline y ${closing.y}`);
  t.true(Math.abs(closing.x - 120 * (OCR_PAGE_WIDTH / 1700)) < 3, `x ${closing.x}`);
  t.is(page.text.split('\n')[0]?.toLowerCase(), 'closing disclosure');
}

test('a PNG is read into words, positioned in points with the origin bottom-left', async (t) => {
  assertSample(t, onlyPage(t, await ocrImage(sample.png, 'image/png')));
});

test('JPEG, WEBP and GIF are read', async (t) => {
  const jpeg = await raw().jpeg({ quality: 80 }).toBuffer();
  const webp = await raw().webp({ quality: 80 }).toBuffer();
  const gif = await raw().gif().toBuffer();
  for (const [bytes, mime] of [
    [jpeg, 'image/jpeg'],
    [webp, 'image/webp'],
    [gif, 'image/gif'],
  ] as const) {
    assertSample(t, onlyPage(t, await ocrImage(bytes, mime)));
  }
});

test('a BMP is read', async (t) => {
  const { data } = await raw().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  assertSample(t, onlyPage(t, await ocrImage(bmp24(data, sample.width, sample.height), 'image/bmp')));
});

test('a JPEG rotated by its EXIF orientation is read upright', async (t) => {
  // Stored turned 90° anticlockwise, with orientation 6 telling viewers to turn it back.
  const jpeg = await raw().rotate(-90).jpeg({ quality: 85 }).withMetadata({ orientation: 6 }).toBuffer();
  assertSample(t, onlyPage(t, await ocrImage(jpeg, 'image/jpeg')));
});

test('a scan two degrees off is deskewed: the words of a line share one baseline', async (t) => {
  const skewed = await raw().rotate(2, { background: '#ffffff' }).png().toBuffer();
  const page = onlyPage(t, await ocrImage(skewed, 'image/png'));
  t.is(page.text.split('\n')[0], 'CLOSING DISCLOSURE');
  const first = page.items.filter((i) => i.text === 'CLOSING' || i.text === 'DISCLOSURE');
  t.is(first.length, 2);
  t.is(first[0]!.y, first[1]!.y);
});

test('a two-page TIFF is read as two pages', async (t) => {
  const first = drawScan(['CLOSING DISCLOSURE']);
  const second = drawScan(['Loan Amount $162,000']);
  const tiff = await sharp(Buffer.concat([first.rgba, second.rgba]), {
    raw: { width: first.width, height: first.height * 2, channels: 4, pageHeight: first.height },
  })
    .tiff({ compression: 'lzw' })
    .toBuffer();
  const read = await ocrImage(tiff, 'image/tiff');
  if (!read.readable) return t.fail(read.reason);
  t.deepEqual(
    read.pages.map((p) => p.number),
    [1, 2],
  );
  t.regex(read.pages[0]!.text, /CLOSING DISCLOSURE/);
  t.notRegex(read.pages[0]!.text, /162/);
  t.regex(read.pages[1]!.text, /Loan Amount \$162,000/);
});

test('a PDF page with no text layer is read through rendering', async (t) => {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(sample.png);
  const page = pdf.addPage([612, 216]);
  page.drawImage(image, { x: 0, y: 0, width: 612, height: 216 });
  const bytes = await pdf.save();
  assertSample(t, onlyPage(t, await ocrPdfPages(bytes, [1])));
});

/** The Ocr the reader is given, recording which PDF pages it was asked to read. */
function watchedOcr(): Ocr & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    image: (bytes, mime, deadline) => tesseractOcr.image(bytes, mime, deadline),
    pdfPages: (bytes, pages, deadline) => {
      asked.push(...pages);
      return tesseractOcr.pdfPages(bytes, pages, deadline);
    },
  };
}

/** `text` drawn as glyph outlines (filled paths, no font): what a PDF with its fonts converted to curves holds. */
function outlinedText(text: string): string[] {
  const canvas = createCanvas(612, 100, SvgExportFlag.ConvertTextToPaths);
  const g = canvas.getContext('2d');
  g.fillStyle = '#000000';
  g.font = `28px ${SCAN_FONT}`;
  g.fillText(text, 40, 60);
  return [
    ...canvas
      .getContent()
      .toString()
      .matchAll(/ d="([^"]+)"/g),
  ].map((m) => m[1]!);
}

test('a PDF page with a thin text layer is OCRed only when it draws an image or outlined text', async (t) => {
  const pdf = await PDFDocument.create();
  // 1: a few words on white (a cover): nothing for OCR to find beyond the text layer.
  pdf.addPage([612, 216]).drawText('Closing Disclosure', { x: 40, y: 150 });
  // 2: the same words over a scanned strip: the scan is read.
  const scanned = pdf.addPage([612, 216]);
  scanned.drawImage(await pdf.embedPng(sample.png), { x: 0, y: 0, width: 612, height: 216 });
  scanned.drawText('Scanned', { x: 40, y: 200, size: 6 });
  // 3: outlined text, no font at all.
  const outlined = pdf.addPage([612, 100]);
  for (const d of outlinedText('LOAN ESTIMATE Loan Amount $162,000')) outlined.drawSvgPath(d, { x: 0, y: 100 });
  // 4: nothing drawn, no text at all: read as a scan would be (and found blank, DOC-006).
  pdf.addPage([612, 216]);
  const ocr = watchedOcr();
  const read = await readFile(await pdf.save(), 'application/pdf', ocr);
  if (!read.readable) return t.fail(read.reason);

  t.deepEqual(ocr.asked, [2, 3, 4]);
  t.deepEqual(
    read.pages.map((p) => p.source),
    ['text_layer', 'ocr', 'ocr', 'ocr'],
  );
  t.is(read.pages[0]!.text, 'Closing Disclosure');
  t.regex(read.pages[1]!.text, /Loan Amount \$162,000/);
  t.regex(read.pages[2]!.text, /LOAN ESTIMATE Loan Amount \$162,000/);
  t.like(read.pages[3], { text: '', confidence: 0 });
});

// Four pages, each with words no other page has; the first is a full page of them, so it is read last.
const FOUR_PAGES = [
  ['CLOSING DISCLOSURE', 'Loan Amount $162,000'],
  ['LOAN ESTIMATE', 'Interest Rate 3.875%'],
  ['PROJECTED PAYMENTS', 'Monthly Escrow $206'],
  ['CASH TO CLOSE', 'Closing Costs $9,712'],
];
const firstWords = FOUR_PAGES.map((lines) => lines[0]!);

/** A page `height` px tall with `lines` repeated all the way down: much slower to read than a strip. */
const fullPage = (lines: string[], height: number) =>
  drawScan(
    Array.from({ length: Math.floor((height - 150) / 200) + 1 }, (_, j) => lines[j % lines.length]!),
    height,
  );

function assertFourPages(t: ExecutionContext, read: OcrRead) {
  if (!read.readable) return t.fail(read.reason);
  t.deepEqual(
    read.pages.map((p) => p.number),
    [1, 2, 3, 4],
  );
  read.pages.forEach((page, i) => {
    for (const line of FOUR_PAGES[i]!)
      t.true(page.text.includes(line), `page ${i + 1} reads "${line}": ${JSON.stringify(page.text)}`);
    for (const other of firstWords.filter((_, j) => j !== i))
      t.false(page.text.includes(other), `page ${i + 1} has no "${other}"`);
  });
}

test('a four-page scanned PDF is read two pages at a time, each page with its own text, in page order', async (t) => {
  const pdf = await PDFDocument.create();
  for (const [i, lines] of FOUR_PAGES.entries()) {
    // Page 1 repeats its lines down a whole Letter page (200 dpi), so later pages finish before it.
    const drawn = i === 0 ? fullPage(lines, 2200) : drawScan(lines);
    const image = await pdf.embedPng(drawn.png);
    const size: [number, number] = [612, (612 * drawn.height) / drawn.width];
    pdf.addPage(size).drawImage(image, { x: 0, y: 0, width: size[0], height: size[1] });
  }
  assertFourPages(t, await ocrPdfPages(await pdf.save(), [1, 2, 3, 4]));
});

test('a four-frame TIFF is read two frames at a time, each page with its own text, in frame order', async (t) => {
  const frames = FOUR_PAGES.map((lines) => drawScan(lines));
  const tiff = await sharp(Buffer.concat(frames.map((f) => f.rgba)), {
    raw: { width: 1700, height: 600 * frames.length, channels: 4, pageHeight: 600 },
  })
    .tiff({ compression: 'lzw' })
    .toBuffer();
  assertFourPages(t, await ocrImage(tiff, 'image/tiff'));
});

const noise = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 90 } },
  })
    .png()
    .toBuffer();

// pdf.js draws a page's own fonts only with the polyfilled (legacy) build on Node 20; the default build
// dropped every drawing operator without an error and OCR saw a blank page.
test('a PDF page drawn with fonts renders for OCR: the CFPB Closing Disclosure reads as printed', async (t) => {
  const cd = new Uint8Array(readFileSync(new URL('../corpus/cfpb/cd_sample_fixed_rate_h25b.pdf', import.meta.url)));
  const page = onlyPage(t, await ocrPdfPages(cd, [2]));
  t.regex(page.text, /Date Issued 4\/15\/2013/);
  t.regex(page.text, /Loan Amount \$162,000/);
  t.regex(page.text, /Interest Rate 3\.875%/);
  t.true((page.confidence ?? 0) > 80, `confidence ${page.confidence}`);
});

test('a blank page has confidence 0 and random noise a low one', async (t) => {
  const blank = await sharp({ create: { width: 1700, height: 600, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  const page = onlyPage(t, await ocrImage(blank, 'image/png'));
  t.deepEqual([page.items, page.text, page.confidence], [[], '', 0]);

  const noisy = onlyPage(t, await ocrImage(await noise(600, 400), 'image/png'));
  t.log(`noise: confidence ${noisy.confidence}, ${noisy.items.length} words`);
  t.true((noisy.confidence ?? 100) < 50, `noise confidence ${noisy.confidence}`);
});

// Serial, so that stopping the workers interrupts only this test's page. A page that outlives the page
// timeout takes this path on its own worker, next test.
test.serial('a page whose recognition is cut short comes back illegible, and the next page is read', async (t) => {
  const slow = await noise(1700, 600); // about 7 s of recognition here
  const reading = ocrImage(slow, 'image/png');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await terminateOcr();
  const page = onlyPage(t, await reading);
  t.deepEqual([page.items, page.confidence], [[], 0]);
  assertSample(t, onlyPage(t, await ocrImage(sample.png, 'image/png')));
});

// Serial: the shortened timeout must not meet other tests' pages.
test.serial(
  'a page that outlives the page timeout is abandoned on its own worker; the other worker reads on',
  async (t) => {
    // The timeout leaves a text page (under 2 s here) eight times its time, so a loaded machine (the whole
    // suite runs four test files at once) does not cut a text page short; the noise page needs more.
    const previous = configureOcr({ pageTimeoutMs: 15_000 });
    try {
      const stuck = await noise(1700, 2400); // about 24 s of recognition here
      // Twenty-eight full Letter pages of text, each read in about a second: the other worker is still busy
      // with them when the stuck page's worker is killed.
      const pdf = await PDFDocument.create();
      const images = await Promise.all(FOUR_PAGES.map((lines) => pdf.embedPng(fullPage(lines, 2200).png)));
      for (let i = 0; i < 28; i++)
        pdf.addPage([612, 792]).drawImage(images[i % 4]!, { x: 0, y: 0, width: 612, height: 792 });
      const bytes = await pdf.save();
      const numbers = Array.from({ length: 28 }, (_, i) => i + 1);

      const started = Date.now();
      const timed = <T>(reading: Promise<T>) =>
        reading.then((read) => ({ read, seconds: (Date.now() - started) / 1000 }));
      const [slow, text] = await Promise.all([timed(ocrImage(stuck, 'image/png')), timed(ocrPdfPages(bytes, numbers))]);
      t.log(`stuck page abandoned after ${slow.seconds} s; twenty-eight text pages read in ${text.seconds} s`);
      const page = onlyPage(t, slow.read);
      t.deepEqual([page.items, page.confidence], [[], 0]);
      t.true(text.seconds > slow.seconds + 1, 'text pages were still being read when the stuck page was abandoned');
      if (!text.read.readable) return t.fail(text.read.reason);
      t.deepEqual(
        text.read.pages.map((p) => p.number),
        numbers,
      );
      text.read.pages.forEach((p, i) => {
        t.true(p.text.includes(firstWords[i % 4]!), `page ${i + 1}: ${JSON.stringify(p.text.slice(0, 80))}`);
      });
      assertSample(t, onlyPage(t, await ocrImage(sample.png, 'image/png')));
    } finally {
      configureOcr(previous);
    }
  },
);

test('a corrupt or unsupported image is unreadable, not an exception', async (t) => {
  const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
  const png = sample.png.subarray(0, 8); // the signature and nothing else
  for (const [bytes, mime] of [
    [garbage, 'image/png'],
    [png, 'image/png'],
    [garbage, 'image/jpeg'],
    [garbage, 'image/tiff'],
    [Buffer.from('BM not really a bitmap'), 'image/bmp'],
    [sample.png, 'image/svg+xml'],
  ] as const) {
    const read = await ocrImage(bytes, mime);
    t.false(read.readable, mime);
    if (!read.readable) t.true(read.reason.length > 0);
  }
  const pdf = await ocrPdfPages(new TextEncoder().encode('%PDF-1.7\nnot a pdf'), [1]);
  t.false(pdf.readable);
});

// Serial: no other test of this file allocates bitmaps meanwhile, so the resident-memory check is this one's.
test.serial('an image declaring huge dimensions is refused before it is decoded', async (t) => {
  const before = process.memoryUsage().rss;
  const png = await ocrImage(pngHeader(100_000, 100_000), 'image/png');
  const bmp = await ocrImage(bmpHeader(50_000, -50_000), 'image/bmp');
  t.deepEqual([png.readable, bmp.readable], [false, false]);
  if (!png.readable) t.regex(png.reason, /100000×100000 pixels, over the 60 megapixel limit/);
  if (!bmp.readable) t.regex(bmp.reason, /megapixel limit/);
  t.true(process.memoryUsage().rss - before < 200 * 1024 * 1024, 'nothing near 10 gigapixels was allocated');
});

test(`a TIFF of more than ${MAX_IMAGE_FRAMES} frames is refused`, async (t) => {
  const frames = MAX_IMAGE_FRAMES + 1;
  const tiff = await sharp(Buffer.alloc(frames * 8 * 8, 255), {
    raw: { width: 8, height: 8 * frames, channels: 1, pageHeight: 8 },
  })
    .tiff()
    .toBuffer();
  const read = await ocrImage(tiff, 'image/tiff');
  t.false(read.readable);
  if (!read.readable) t.regex(read.reason, /501 frames/);
});

test('BMP variants decode to the same grey pixels: 1, 8 (top-down), 24, 32-bit bit fields, RLE8', (t) => {
  const width = 5;
  const height = 3;
  const grey = Uint8Array.from({ length: width * height }, (_, i) => (i % 2 === 0 ? 0 : 255));
  const rgb = Buffer.from(Array.from(grey, (v) => [v, v, v]).flat());
  const expected = { width, height, grey };
  t.deepEqual(decodeBmp(bmp24(rgb, width, height)), expected, '24-bit');
  t.deepEqual(decodeBmp(bmpPalette(grey, width, height, 8, true)), expected, '8-bit top-down');
  t.deepEqual(decodeBmp(bmpPalette(grey, width, height, 1, false)), expected, '1-bit');
  t.deepEqual(decodeBmp(bmp32Fields(grey, width, height)), expected, '32-bit V5 bit fields');
  t.deepEqual(decodeBmp(bmpRle8(grey, width, height)), expected, 'RLE8');
});

test('an RLE8 run past the end of its row is cut there: the next row starts only at the end-of-line code', (t) => {
  const palette = Buffer.alloc(256 * 4);
  for (let i = 0; i < 256; i++) palette.fill(i, i * 4, i * 4 + 3);
  // Bottom row: a run of 200 black pixels in a row of 3; top row: 3 white ones.
  const pixels = Buffer.from([200, 0, 0, 0, 3, 255, 0, 0, 0, 1]);
  const decoded = decodeBmp(bmpFile(infoHeader(40, 3, 2, 8, 1, pixels.length), palette, pixels));
  t.deepEqual(decoded, { width: 3, height: 2, grey: Uint8Array.from([255, 255, 255, 0, 0, 0]) });
});

test('RLE runs that declare far more pixels than a row holds cost one step per run, not per pixel declared', (t) => {
  // 16 MiB of runs of 255 pixels each in a 4×4 bitmap: two billion pixels declared, 16 to draw. Stepping
  // through every declared pixel takes seconds of CPU; a step per run, milliseconds.
  const palette = Buffer.alloc(256 * 4);
  for (const [bits, compression] of [
    [8, 1],
    [4, 2],
  ] as const) {
    const runs = Buffer.alloc(16 * 1024 * 1024);
    for (let i = 0; i < runs.length; i += 2) runs[i] = 255;
    const file = bmpFile(
      infoHeader(40, 4, 4, bits, compression, runs.length),
      palette.subarray(0, (1 << bits) * 4),
      runs,
    );
    const before = process.cpuUsage();
    const decoded = decodeBmp(file);
    const { user, system } = process.cpuUsage(before);
    t.is(decoded.grey.length, 16);
    t.true(user + system < 500_000, `RLE${bits}: ${Math.round((user + system) / 1000)} ms of CPU for 8 million runs`);
  }
});

// ---------------------------------------------------------------------------------------------------
// Encoders for the test images sharp cannot write, and headers that lie about their size.

function bmpFile(infoHeader: Buffer, palette: Buffer, pixels: Buffer): Buffer {
  const file = Buffer.alloc(14);
  const offset = 14 + infoHeader.length + palette.length;
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(offset + pixels.length, 2);
  file.writeUInt32LE(offset, 10);
  return Buffer.concat([file, infoHeader, palette, pixels]);
}

function infoHeader(
  size: number,
  width: number,
  height: number,
  bits: number,
  compression: number,
  imageSize: number,
): Buffer {
  const h = Buffer.alloc(size);
  h.writeUInt32LE(size, 0);
  h.writeInt32LE(width, 4);
  h.writeInt32LE(height, 8);
  h.writeUInt16LE(1, 12);
  h.writeUInt16LE(bits, 14);
  h.writeUInt32LE(compression, 16);
  h.writeUInt32LE(imageSize, 20);
  return h;
}

/** Rows bottom-up, each padded to four bytes, as BMP stores them. */
function rows(width: number, height: number, bits: number, row: (y: number) => Buffer, topDown = false): Buffer {
  const stride = Math.floor((bits * width + 31) / 32) * 4;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) row(topDown ? y : height - 1 - y).copy(out, y * stride);
  return out;
}

function bmp24(rgb: Buffer, width: number, height: number): Buffer {
  const pixels = rows(width, height, 24, (y) => {
    const line = Buffer.alloc(width * 3);
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      line[x * 3] = rgb[at + 2]!;
      line[x * 3 + 1] = rgb[at + 1]!;
      line[x * 3 + 2] = rgb[at]!;
    }
    return line;
  });
  return bmpFile(infoHeader(40, width, height, 24, 0, pixels.length), Buffer.alloc(0), pixels);
}

function bmpPalette(grey: Uint8Array, width: number, height: number, bits: 1 | 8, topDown: boolean): Buffer {
  const colours = 1 << bits;
  const palette = Buffer.alloc(colours * 4);
  for (let i = 0; i < colours; i++) palette.fill(bits === 1 ? i * 255 : i, i * 4, i * 4 + 3);
  const pixels = rows(
    width,
    height,
    bits,
    (y) => {
      const line = Buffer.alloc(Math.ceil((width * bits) / 8));
      for (let x = 0; x < width; x++) {
        const v = grey[y * width + x]!;
        if (bits === 8) line[x] = v;
        else if (v) line[x >> 3]! |= 0x80 >> (x & 7);
      }
      return line;
    },
    topDown,
  );
  return bmpFile(infoHeader(40, width, topDown ? -height : height, bits, 0, pixels.length), palette, pixels);
}

function bmp32Fields(grey: Uint8Array, width: number, height: number): Buffer {
  const header = infoHeader(124, width, height, 32, 3, width * height * 4);
  header.writeUInt32LE(0x0000ff00, 40); // red in the second byte, green in the third, blue in the fourth:
  header.writeUInt32LE(0x00ff0000, 44); // an order no default would guess
  header.writeUInt32LE(0xff000000, 48);
  const pixels = rows(width, height, 32, (y) => {
    const line = Buffer.alloc(width * 4);
    for (let x = 0; x < width; x++) line.writeUInt32LE(grey[y * width + x]! * 0x01010100, x * 4);
    return line;
  });
  return bmpFile(header, Buffer.alloc(0), pixels);
}

function bmpRle8(grey: Uint8Array, width: number, height: number): Buffer {
  const palette = Buffer.alloc(256 * 4);
  for (let i = 0; i < 256; i++) palette.fill(i, i * 4, i * 4 + 3);
  const codes: number[] = [];
  for (let y = height - 1; y >= 0; y--) {
    // One literal run of the row's first three pixels, then single-pixel encoded runs, then end of line.
    codes.push(0, 3, ...grey.subarray(y * width, y * width + 3), 0);
    for (let x = 3; x < width; x++) codes.push(1, grey[y * width + x]!);
    codes.push(0, 0);
  }
  codes.push(0, 1);
  const pixels = Buffer.from(codes);
  return bmpFile(infoHeader(40, width, height, 8, 1, pixels.length), palette, pixels);
}

function bmpHeader(width: number, height: number): Buffer {
  return bmpFile(infoHeader(40, width, height, 24, 0, 0), Buffer.alloc(0), Buffer.alloc(16));
}

/** A PNG whose header declares `width`×`height`, followed by a tiny (and so inconsistent) image body. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
