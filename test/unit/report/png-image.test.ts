// The report places its pictures' PNGs without decoding them: the PDF reader must draw the same pixels.
import test from 'ava';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import sharp, { type PngOptions } from 'sharp';
import { renderPdfPage } from '../../../src/qc/reading/render.js';
import { placePng } from '../../../src/report/png-image.js';

/** A 200 × 100 picture: white, a black square at (20..60, 30..70), a mid-grey band at x 120..180. */
async function picture(options: PngOptions): Promise<Uint8Array> {
  const grey = new Uint8Array(200 * 100).fill(255);
  for (let y = 0; y < 100; y++) {
    for (let x = 0; x < 200; x++) {
      if (x >= 20 && x < 60 && y >= 30 && y < 70) grey[y * 200 + x] = 0;
      else if (x >= 120 && x < 180) grey[y * 200 + x] = 128;
    }
  }
  return new Uint8Array(
    await sharp(grey, { raw: { width: 200, height: 100, channels: 1 } })
      .png(options)
      .toBuffer(),
  );
}

/** The page drawn at 72 dpi, as grey pixels. */
async function drawn(
  png: Uint8Array,
): Promise<{ at: (x: number, y: number) => number; placed: { width: number; height: number } }> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 100]);
  const placed = await placePng(doc, png);
  const name = page.node.newXObject('Image', placed.ref);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(200, 0, 0, 100, 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
  const rendered = await renderPdfPage(await doc.save(), 1, 72);
  const { data, info } = await sharp(rendered).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { at: (x, y) => data[(y * info.width + x) * info.channels]!, placed };
}

for (const [name, options] of [
  ['a palette PNG (what evidence pictures are)', { palette: true, colours: 16, compressionLevel: 9 }],
  ['an 8-bit grey PNG', { compressionLevel: 6 }],
  ['an RGB PNG (handed to pdf-lib)', { compressionLevel: 6 }],
] as const) {
  test(`${name} is drawn with its own pixels`, async (t) => {
    let png = await picture(options);
    if (name.startsWith('an RGB'))
      png = new Uint8Array(await sharp(png).toColourspace('srgb').png({ palette: false }).toBuffer());
    const { at, placed } = await drawn(png);
    t.deepEqual(placed, { ...placed, width: 200, height: 100 });
    t.true(at(40, 50) < 30, `the square is black (${at(40, 50)})`);
    t.true(at(100, 50) > 225, `the paper is white (${at(100, 50)})`);
    t.true(Math.abs(at(150, 50) - 128) < 20, `the band is mid-grey (${at(150, 50)})`);
  });
}
