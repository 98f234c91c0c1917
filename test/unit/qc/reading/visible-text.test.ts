// A text layer's words are read only where the page draws them (reading/visible-text.ts): text in white,
// or painted over, is not on the page; text over a scan or a shaded box still is.
import test from 'ava';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { readPdf } from '../../../../src/qc/reading/pdf-threads.js';

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
