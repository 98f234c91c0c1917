// `npx tsx bench/ocr-page.ts [pages]`: seconds of OCR per 300-dpi Letter page on this machine, for an
// image (PNG) and for a scanned PDF page (render + OCR), and the process's peak resident memory.
// The page is dense on purpose (~55 lines, ~700 words, 10-pt type): a form page has fewer words.
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { ocrImage, ocrPdfPages, terminateOcr } from '../src/qc/reading/ocr.js';

const require = createRequire(import.meta.url);
GlobalFonts.registerFromPath(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), 'BenchSans');
const PAGES = Number(process.argv[2] ?? 3);

function letterPage(): Buffer {
  const canvas = createCanvas(2550, 3300);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 2550, 3300);
  g.fillStyle = '#000000';
  g.font = '42px BenchSans';
  g.fillText('CLOSING DISCLOSURE', 200, 250);
  g.fillText('Loan Amount $162,000', 1400, 250);
  for (let i = 0; i < 55; i++) {
    g.fillText(`Line ${i} of the body text with several words in it, amount $${(i * 1234.5).toFixed(2)}`, 200, 330 + i * 54);
  }
  return canvas.toBuffer('image/png');
}

async function main() {
  const png = letterPage();
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  for (let i = 0; i < PAGES; i++) pdf.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  const pdfBytes = await pdf.save();

  let started = performance.now();
  await ocrImage(png, 'image/png');
  console.log(`first page, including worker start: ${((performance.now() - started) / 1000).toFixed(2)} s`);

  started = performance.now();
  let confidence = 0;
  for (let i = 0; i < PAGES; i++) {
    const read = await ocrImage(png, 'image/png');
    if (read.readable) confidence = read.pages[0]?.confidence ?? 0;
  }
  console.log(`image: ${((performance.now() - started) / 1000 / PAGES).toFixed(2)} s per page (confidence ${confidence})`);

  started = performance.now();
  await ocrPdfPages(pdfBytes, Array.from({ length: PAGES }, (_, i) => i + 1));
  console.log(`PDF (render + OCR): ${((performance.now() - started) / 1000 / PAGES).toFixed(2)} s per page`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  await terminateOcr();
}

await main();
