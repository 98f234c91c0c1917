// A text layer's words are read only where the page draws them (reading/visible-text.ts): text in white,
// or painted over, is not on the page; text over a scan or a shaded box still is.
import test from 'ava';
import { createCanvas } from '@napi-rs/canvas';
import {
  clip,
  clipEvenOdd,
  degrees,
  endPath,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setTextRenderingMode,
  StandardFonts,
  TextRenderingMode,
} from 'pdf-lib';
import { operatorInk } from '../../../../src/qc/reading/operator-ink.js';
import { readPdf } from '../../../../src/qc/reading/pdf-threads.js';
import { openPdfForRendering } from '../../../../src/qc/reading/render.js';

async function page(draw: (p: import('pdf-lib').PDFPage, font: import('pdf-lib').PDFFont) => void): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p = doc.addPage([612, 792]);
  p.drawText('Loan Amount', { x: 72, y: 700, size: 10, font });
  draw(p, font);
  const read = await readPdf(await doc.save());
  if (!read.readable) throw new Error(read.reason);
  return read.pages[0]!.text;
}

test('a value printed in white is not read', async (t) => {
  const text = await page((p, font) => p.drawText('$999,999', { x: 200, y: 700, size: 10, font, color: rgb(1, 1, 1) }));
  t.is(text, 'Loan Amount');
});

test('a value painted over by a white box is not read', async (t) => {
  const text = await page((p, font) => {
    p.drawText('$999,999', { x: 200, y: 700, size: 10, font });
    p.drawRectangle({ x: 190, y: 690, width: 100, height: 30, color: rgb(1, 1, 1) });
  });
  t.is(text, 'Loan Amount');
});

test('a value printed on a shaded box, or dark on a dark bar, is read', async (t) => {
  const text = await page((p, font) => {
    p.drawRectangle({ x: 190, y: 690, width: 100, height: 30, color: rgb(0.85, 0.85, 0.85) });
    p.drawText('$162,000', { x: 200, y: 700, size: 10, font });
    p.drawRectangle({ x: 60, y: 640, width: 300, height: 20, color: rgb(0, 0, 0) });
    p.drawText('PROJECTED PAYMENTS', { x: 72, y: 646, size: 10, font, color: rgb(1, 1, 1) });
  });
  t.is(text, 'Loan Amount $162,000\nPROJECTED PAYMENTS');
});

test('the tail of a value typed past its box is cut where the box clips it', async (t) => {
  const text = await page((p, font) => {
    p.drawText('123456789999', { x: 200, y: 700, size: 10, font });
    // The form's next box, drawn after the value, covers its last three digits.
    const width = font.widthOfTextAtSize('123456789', 10);
    p.drawRectangle({ x: 200 + width + 0.5, y: 695, width: 60, height: 20, color: rgb(1, 1, 1) });
  });
  t.is(text, 'Loan Amount 123456789');
});

// The same checks, read from the page's drawing operators rather than a render (reading/operator-ink.ts).

async function inkOf(
  draw: (p: import('pdf-lib').PDFPage, doc: PDFDocument) => Promise<void> | void,
): Promise<{ modelled: boolean; text: string }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p = doc.addPage([612, 792]);
  p.setFont(font);
  await draw(p, doc);
  const bytes = await doc.save();
  const pdf = await openPdfForRendering(bytes);
  try {
    const page = await pdf.getPage(1);
    const modelled = (await operatorInk(page, page.getViewport({ scale: 1.5 }))) !== null;
    const read = await readPdf(bytes);
    if (!read.readable) throw new Error(read.reason);
    return { modelled, text: read.pages[0]!.text };
  } finally {
    await pdf.destroy();
  }
}

/** A scan's strip: dark grey print in its left half, white paper in its right half. */
function halfPrinted(): Uint8Array {
  const canvas = createCanvas(40, 10);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 40, 10);
  ctx.fillStyle = 'rgb(30,30,30)';
  ctx.fillRect(0, 0, 20, 10);
  return canvas.toBuffer('image/png');
}

test('the forms above are read from their operators, with no render', async (t) => {
  const read = await inkOf((p) => {
    p.drawText('Loan Amount', { x: 72, y: 700, size: 10 });
    p.drawRectangle({ x: 190, y: 690, width: 100, height: 30, color: rgb(1, 1, 1) });
    p.drawLine({ start: { x: 72, y: 690 }, end: { x: 540, y: 690 }, thickness: 0.5 });
  });
  t.true(read.modelled);
  t.is(read.text, 'Loan Amount');
});

for (const rotation of [0, 90]) {
  test(
    `invisible text over a scan is read where the scan has ink under it, not over white paper ` +
      `(page turned ${rotation}°)`,
    async (t) => {
      const read = await inkOf(async (p, doc) => {
        p.setRotation(degrees(rotation));
        // One image under both words: printed under the first, paper under the second.
        p.drawImage(await doc.embedPng(halfPrinted()), { x: 60, y: 690, width: 480, height: 30 });
        p.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
        p.drawText('BORROWER', { x: 72, y: 700, size: 10 });
        p.drawText('SAMPLE', { x: 312, y: 700, size: 10 });
      });
      t.true(read.modelled, 'images are read from their pixels, not rendered');
      t.is(read.text, 'BORROWER');
    },
  );
}

test(
  'text clipped away, or inside an even-odd frame whose centre is painted, is judged as a ' + 'render would',
  async (t) => {
    const read = await inkOf((p) => {
      p.drawText('Purpose', { x: 72, y: 700, size: 10 });
      // A box clipped to a narrow window: only "Purch" of "Purchase" shows, and the hidden sample not at all.
      p.pushOperators(pushGraphicsState(), rectangle(200, 690, 26, 30), clip(), endPath());
      p.drawText('Purchase', { x: 200, y: 700, size: 10 });
      p.drawText('30 years', { x: 240, y: 700, size: 10 });
      p.pushOperators(popGraphicsState());
      // A grey frame painted through an even-odd clip (outer box minus inner box) leaves the label inside.
      p.drawText('Closing Information', { x: 72, y: 650, size: 10 });
      p.pushOperators(
        pushGraphicsState(),
        rectangle(60, 640, 200, 25),
        rectangle(62, 642, 196, 21),
        clipEvenOdd(),
        endPath(),
      );
      p.drawRectangle({ x: 60, y: 640, width: 200, height: 25, color: rgb(0.88, 0.88, 0.88) });
      p.pushOperators(popGraphicsState());
    });
    t.true(read.modelled);
    t.is(read.text, 'Purpose Purch\nClosing Information');
  },
);

test('text made a clip shows where paint goes through it, and not where none does', async (t) => {
  const read = await inkOf((p) => {
    // Glyphs as a clip (mode 7), then a bar painted through them: the letters show, cut from the bar.
    p.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Clip));
    p.drawText('INSURED', { x: 72, y: 700, size: 10 });
    p.drawRectangle({ x: 60, y: 698, width: 200, height: 12, color: rgb(0, 0, 0) });
    p.pushOperators(popGraphicsState());
    // The same with nothing painted through: nothing shows.
    p.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Clip));
    p.drawText('UNINSURED', { x: 72, y: 650, size: 10 });
    p.pushOperators(popGraphicsState());
  });
  t.true(read.modelled);
  t.is(read.text, 'INSURED');
});
