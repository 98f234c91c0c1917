// The two OCR engines: native tesseract where it is installed (the stack and the Dockerfile install it),
// tesseract.js forced or where the binary is missing. Both must read, and straighten, a tilted scan alike.
// Serial: the engine is the pool's one setting.
import test, { type ExecutionContext } from 'ava';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { configureOcr, ocrEngine, ocrImage, terminateOcr, type OcrEngineSetting } from '../../src/qc/reading/ocr.js';
import type { PageText } from '../../src/qc/reading/page.js';
import { ReaderUnavailable } from '../../src/qc/reading/unavailable.js';
import { SCAN_FONT } from '../support/scan-image.js';

configureOcr({ workers: 2 });
test.after.always(() => terminateOcr());

const ROWS = [
  ['Loan Amount', '$162,000'],
  ['Interest Rate', '3.875%'],
  ['Monthly Principal', '$761.78'],
  ['Closing Costs', '$9,712.10'],
];

/** Labels at the left and their values at the right edge of a 200-dpi Letter-wide page, scanned 1.5° off. */
async function tiltedForm(): Promise<Buffer> {
  const canvas = createCanvas(1700, 1000);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 1700, 1000);
  g.fillStyle = '#000000';
  g.font = `34px ${SCAN_FONT}`;
  ROWS.forEach(([label, value], i) => {
    g.fillText(label!, 120, 150 + i * 200);
    g.fillText(value!, 1350, 150 + i * 200);
  });
  return sharp(canvas.toBuffer('image/png')).rotate(1.5, { background: '#ffffff' }).png().toBuffer();
}

async function readWith(t: ExecutionContext, engine: OcrEngineSetting): Promise<PageText> {
  configureOcr({ engine });
  const read = await ocrImage(await tiltedForm(), 'image/png');
  if (!read.readable) throw new Error(read.reason);
  t.is(read.pages.length, 1);
  return read.pages[0]!;
}

/** Straightened: each value stands on its label's baseline, though across the page it drifted 30 px. */
function assertStraightened(t: ExecutionContext, page: PageText) {
  t.true(page.turned !== undefined && Math.abs(page.turned - (-1.5 * Math.PI) / 180) < 0.005, `turned ${page.turned}`);
  for (const [label, value] of ROWS) {
    const first = page.items.find((i) => i.text === label!.split(' ')[0]);
    const figure = page.items.find((i) => i.text === value);
    if (!first || !figure) return t.fail(`${label} or ${value} missing from ${JSON.stringify(page.text)}`);
    t.true(Math.abs(first.y - figure.y) < 3, `${label} at y ${first.y}, ${value} at ${figure.y}`);
    t.true(
      figure.ink !== undefined && Math.abs(figure.ink.bottom - figure.y) < 4,
      `${value}'s ink stands on its baseline`,
    );
  }
  t.true((page.confidence ?? 0) > 70, `confidence ${page.confidence}`);
}

test.serial('native tesseract reads scans where it is installed, and straightens a tilted one', async (t) => {
  configureOcr({ engine: 'auto' });
  t.is(
    await ocrEngine(),
    'native',
    'install tesseract-ocr tesseract-ocr-eng tesseract-ocr-spa (npm test does as root)',
  );
  assertStraightened(t, await readWith(t, 'native'));
});

test.serial('tesseract.js, when forced, reads and straightens the same scan', async (t) => {
  const page = await readWith(t, 'tesseract.js');
  t.is(await ocrEngine(), 'tesseract.js');
  assertStraightened(t, page);
});

test.serial(
  'without a tesseract binary, auto falls back to tesseract.js and a forced native engine is unavailable',
  async (t) => {
    const path = process.env.PATH;
    // The binary is looked for on PATH, as the child process will be started.
    process.env.PATH = '/nonexistent';
    try {
      configureOcr({ engine: 'native' });
      await t.throwsAsync(ocrEngine(), { message: /native tesseract is not usable: no tesseract binary on PATH/ });
      await t.throwsAsync(ocrImage(await tiltedForm(), 'image/png'), { instanceOf: ReaderUnavailable });
      configureOcr({ engine: 'auto' });
      t.is(await ocrEngine(), 'tesseract.js');
      const read = await ocrImage(await tiltedForm(), 'image/png');
      if (!read.readable) return t.fail(read.reason);
      t.regex(read.pages[0]!.text, /Loan Amount/);
    } finally {
      process.env.PATH = path;
      configureOcr({ engine: 'auto' });
    }
  },
);
