// Pages turned sideways or upside down, as scanner feeds and phones deliver them, read as the same pages
// upright: every page's orientation is found before it is read (orientation.ts), with either OCR engine.
import test from 'ava';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { analyseDocuments } from '../../src/qc/analyse.js';
import type { LoanDocument } from '../../src/qc/fields.js';
import { tesseractOcr } from '../../src/qc/reading/document.js';
import { configureOcr, ocrImage, terminateOcr } from '../../src/qc/reading/ocr.js';
import type { PageText } from '../../src/qc/reading/page.js';
import { imagePdf, TURNED_DPI, turnedPages } from '../support/degrade.js';
import { readWithoutTimeBudgets } from '../support/reading-budgets.js';

readWithoutTimeBudgets({ ocrWorkers: 2 });
test.after.always(() => terminateOcr());

const scan = (file: string) =>
  new Uint8Array(readFileSync(new URL(`../corpus/public-docs/scans/${file}`, import.meta.url)));

async function documentsOf(filename: string, bytes: Uint8Array): Promise<LoanDocument[]> {
  const analysis = await analyseDocuments(
    [{ id: '0', filename, mime: 'application/pdf', objectKey: '0' }],
    async () => bytes,
    () => {},
    { ocr: tesseractOcr, concurrency: 2 },
  );
  return analysis.loan.documents;
}

/**
 * Every value read, by document class and field, where it was printed left aside; not the fee lines, whose
 * small print OCR reads with noise on a scan (a page drawn sideways and turned back is not drawn at exactly
 * the same pixels, and a Spanish scan's fee amounts come out differently from one reading to the next).
 */
function valuesOf(docs: readonly LoanDocument[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const doc of docs)
    for (const [name, field] of Object.entries(doc.fields as Record<string, unknown>))
      if (name !== 'fees')
        values[`${doc.documentClass}.${name}`] = JSON.parse(
          JSON.stringify(field, (k, v) => (k === 'box' ? undefined : v)),
        );
  return values;
}

for (const file of ['le_sample_fixed_rate_h24b_scan.pdf', 'le_sample_arm_spanish_h28b_scan.pdf']) {
  test.serial(`${file} with its pages upright, sideways and upside down reads as the upright scan`, async (t) => {
    configureOcr({ engine: 'native' });
    const upright = await documentsOf(
      file,
      await imagePdf(await turnedPages(scan(file), [0], { lossless: true }), TURNED_DPI),
    );
    const turned = await documentsOf(
      file,
      await imagePdf(await turnedPages(scan(file), [1, 2, 3, 0], { lossless: true }), TURNED_DPI),
    );
    t.deepEqual(
      turned.map((d) => [d.documentClass, d.pages.map((p) => p.number)]),
      upright.map((d) => [d.documentClass, d.pages.map((p) => p.number)]),
    );
    const expected = valuesOf(upright);
    t.true(Object.keys(expected).length >= 5, `${Object.keys(expected).length} values read upright`);
    t.deepEqual(valuesOf(turned), expected);
  });
}

/** The pay stub's scan, upright, as a JPEG. */
const payStub = async () => (await turnedPages(scan('paystub_okafor_scan.pdf'), [0]))[0]!;

/** OCR of `upright` turned clockwise by `turns` quarter turns, as a photo of it lying so. */
async function readLying(upright: Buffer, turns: number): Promise<PageText> {
  const read = await ocrImage(
    await sharp(upright)
      .rotate(turns * 90)
      .jpeg({ quality: 90 })
      .toBuffer(),
    'image/jpeg',
  );
  if (!read.readable) throw new Error(read.reason);
  return read.pages[0]!;
}

test.serial(
  'each page says the quarter turns that made it upright, and its words stand on the upright page',
  async (t) => {
    configureOcr({ engine: 'native' });
    const upright = await payStub();
    const texts: string[] = [];
    for (const turns of [0, 1, 2, 3]) {
      const page = await readLying(upright, turns);
      t.is(page.quarterTurns ?? 0, (4 - turns) % 4, `lying ${turns} quarter turns`);
      t.true((page.confidence ?? 0) > 80, `confidence ${page.confidence}`);
      texts.push(page.text);
    }
    t.true(
      texts.every((text) => text === texts[0]),
      'the same text every way round',
    );
  },
);

test.serial(
  'tesseract.js, without orientation detection, reads an upside-down and a sideways page upright',
  async (t) => {
    configureOcr({ engine: 'tesseract.js' });
    try {
      const upright = await payStub();
      for (const turns of [2, 3]) {
        const page = await readLying(upright, turns);
        t.is(page.quarterTurns ?? 0, (4 - turns) % 4);
        t.regex(page.text, /Okafor/);
      }
    } finally {
      configureOcr({ engine: 'auto' });
    }
  },
);
