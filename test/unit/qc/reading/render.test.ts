// OCR reads a PDF page drawn as raw pixels in a pdf.js thread (render.ts, pdf-threads.ts): the bitmap it
// reads must be the one the same page's PNG gives, so that OCR reads what the page shows and nothing is lost
// by skipping the PNG. A page drawn in greys alone comes as its grey plane, which must be what greying its
// RGBA would give.
import { readFile } from 'node:fs/promises';
import test from 'ava';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { bitmapOfRender, openImage } from '../../../../src/qc/reading/images.js';
import { openPdfRenderer, terminatePdfThreads } from '../../../../src/qc/reading/pdf-threads.js';
import { RENDER_DPI } from '../../../../src/qc/reading/page.js';
import { flattenPaper } from '../../../../src/qc/reading/paper.js';
import { greyPlane, renderPdfPage } from '../../../../src/qc/reading/render.js';

test.after.always(() => terminatePdfThreads());

const CD = new URL('../../../corpus/cfpb/cd_sample_fixed_rate_h25b.pdf', import.meta.url);

/** The OCR bitmaps of page 1 drawn in a pdf.js thread and of its PNG read as an image; the render's channels. */
async function bitmapsOf(bytes: Uint8Array) {
  const renderer = await openPdfRenderer(bytes);
  if ('refused' in renderer) throw new Error(renderer.refused);
  try {
    const pixels = await renderer.render(1, RENDER_DPI);
    if (!pixels) throw new Error('the page did not render');
    const channels = pixels.channels;
    const rendered = await bitmapOfRender(pixels);
    const png = await (await openImage(await renderPdfPage(bytes, 1, RENDER_DPI), 'image/png')).frame(0);
    return { channels, rendered, png };
  } finally {
    await renderer.close();
  }
}

test('a page with colour rendered for OCR comes as RGBA and greys to the bitmap of its PNG, soft masks included', async (t) => {
  // Page 1 draws its shaded boxes as images with soft masks over the text, under a green stamp; at 300 dpi
  // its height is 3300.0000000000005 pixels, which both make 3300.
  const { channels, rendered, png } = await bitmapsOf(new Uint8Array(await readFile(CD)));
  t.is(channels, 4);
  t.deepEqual([rendered.width, rendered.height], [png.width, png.height]);
  t.is(Buffer.compare(Buffer.from(rendered.grey), Buffer.from(png.grey)), 0);
  // Not white paper only: the page's ink is there.
  t.true(rendered.grey.some((v) => v < 128));
});

test('a page drawn in greys alone rendered for OCR is its grey plane, the bitmap of its PNG', async (t) => {
  // A grey scan (a JPEG drawn over the page at 200 dpi) with a translucent shaded box and text over it.
  const words =
    '<svg width="1700" height="2200"><text x="150" y="300" font-size="60">Loan Amount $211,000</text></svg>';
  const scan = await sharp({ create: { width: 1700, height: 2200, channels: 3, background: '#ebebeb' } })
    .composite([{ input: Buffer.from(words) }])
    .grayscale()
    .jpeg({ quality: 80 })
    .toBuffer();
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawImage(await doc.embedJpg(scan), { x: 0, y: 0, width: 612, height: 792 });
  page.drawRectangle({ x: 60, y: 600, width: 300, height: 80, color: rgb(0.8, 0.8, 0.8), opacity: 0.5 });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Interest Rate 3.875%', { x: 72, y: 560, size: 14, font });
  const { channels, rendered, png } = await bitmapsOf(await doc.save());
  t.is(channels, 1);
  t.deepEqual([rendered.width, rendered.height], [png.width, png.height]);
  t.is(Buffer.compare(Buffer.from(rendered.grey), Buffer.from(png.grey)), 0);
  t.true(rendered.grey.some((v) => v < 128));
});

test('greying leaves every grey level as it is, so a grey plane is what greying its RGBA gives', async (t) => {
  const levels = Buffer.alloc(256 * 4);
  for (let v = 0; v < 256; v++) levels.set([v, v, v, 255], v * 4);
  const greyed = await sharp(levels, { raw: { width: 256, height: 1, channels: 4 } })
    .flatten({ background: '#ffffff' })
    .grayscale()
    .raw()
    .toBuffer();
  t.deepEqual([...greyed], [...Array(256).keys()]);
  t.deepEqual(greyPlane(levels), new Uint8Array(greyed));
});

test('an opaque render greys without flattening to what flattening and greying give, for every colour', async (t) => {
  // All 2^24 opaque colours, one a pixel: a render's alpha is dropped rather than flattened (bitmapOfRender).
  const side = 4096;
  const colours = new Uint8Array(side * side * 4);
  for (let i = 0; i < side * side; i++) colours.set([(i >> 16) & 255, (i >> 8) & 255, i & 255, 255], i * 4);
  const raw = { raw: { width: side, height: side, channels: 4 as const } };
  const flattened = await sharp(colours, raw).flatten({ background: '#ffffff' }).grayscale().raw().toBuffer();
  t.is(flattened.length, side * side);
  // Both as OCR gets them, paper evened out after greying.
  const expected = await flattenPaper(flattened, side, side);
  const { grey } = await bitmapOfRender({ data: colours, channels: 4, width: side, height: side });
  t.is(Buffer.compare(Buffer.from(grey), Buffer.from(expected)), 0);
});

test('a grey plane is refused for one coloured or one translucent pixel', (t) => {
  const white = () => new Uint8Array(64 * 4).fill(255);
  t.deepEqual(greyPlane(white()), new Uint8Array(64).fill(255));
  for (const [at, value] of [
    [4 * 9 + 1, 254], // green
    [4 * 17 + 2, 0], // blue
    [4 * 63 + 0, 3], // red
    [4 * 40 + 3, 254], // alpha
  ] as const) {
    const pixels = white();
    pixels[at] = value;
    t.is(greyPlane(pixels), undefined, `byte ${at} = ${value}`);
  }
  // Rows need not start on a word boundary.
  const offset = new Uint8Array(1 + 8 * 4).fill(255).subarray(1);
  t.deepEqual(greyPlane(offset), new Uint8Array(8).fill(255));
});
