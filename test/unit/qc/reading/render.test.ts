// OCR reads a PDF page drawn as raw pixels in a pdf.js thread (render.ts, pdf-threads.ts): they must be
// the pixels a PNG of the same page holds, so that OCR reads what the page shows and nothing is lost by
// skipping the PNG.
import { readFile } from 'node:fs/promises';
import test from 'ava';
import sharp from 'sharp';
import { openPdfRenderer, terminatePdfThreads } from '../../../../src/qc/reading/pdf-threads.js';
import { RENDER_DPI } from '../../../../src/qc/reading/page.js';
import { renderPdfPage } from '../../../../src/qc/reading/render.js';

test.after.always(() => terminatePdfThreads());

const CD = new URL('../../../corpus/cfpb/cd_sample_fixed_rate_h25b.pdf', import.meta.url);

test('a page rendered for OCR has the pixels of its PNG render, shaded boxes and soft masks included', async (t) => {
  const bytes = new Uint8Array(await readFile(CD));
  const renderer = await openPdfRenderer(bytes);
  if ('refused' in renderer) return t.fail(renderer.refused);
  try {
    // Page 1 draws its shaded boxes as images with soft masks over the text; at 300 dpi its height is
    // 3300.0000000000005 pixels, which both make 3300.
    const pixels = await renderer.render(1, RENDER_DPI);
    if (!pixels) return t.fail('the page did not render');
    const { data, info } = await sharp(await renderPdfPage(bytes, 1, RENDER_DPI))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    t.deepEqual([pixels.width, pixels.height], [info.width, info.height]);
    t.is(Buffer.compare(Buffer.from(pixels.rgba), data), 0);
    // Not white paper only: the page's ink is there.
    t.true(pixels.rgba.some((v) => v < 128));
  } finally {
    await renderer.close();
  }
});
