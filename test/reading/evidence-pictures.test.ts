// The report's pictures of the evidence: the region of the page where a value was printed, with the value's
// box in it. The box must stand on the value itself, whichever reader read it: a text layer (mapped through
// the page's crop box), OCR of a straight scan, and OCR of a page photographed a few degrees off (which
// OCR straightens before reading). Each picture's boxed region is read back with OCR and must say the value.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import type { LoanDocument } from '../../src/qc/fields.js';
import type { Evidence, Finding } from '../../src/qc/finding.js';
import { analyseFile } from '../../src/qc/logical-documents.js';
import { tesseractOcr } from '../../src/qc/reading/document.js';
import { ocrImage, terminateOcr } from '../../src/qc/reading/ocr.js';
import {
  evidencePictures,
  openPageSource,
  pictureKey,
  type EvidencePicture,
} from '../../src/report/evidence-pictures.js';
import { DEGRADATIONS, degradedPages, imagePdf, TURNED_DPI, turnedPages } from '../support/degrade.js';
import { readWithoutTimeBudgets } from '../support/reading-budgets.js';

readWithoutTimeBudgets({ ocrWorkers: 2 });
test.after.always(() => terminateOcr());

const cd = readFileSync(new URL('../corpus/cfpb/cd_sample_fixed_rate_h25b.pdf', import.meta.url));

/** Page `number` of `pdf` alone. */
async function pageOf(pdf: Uint8Array, number: number): Promise<Uint8Array> {
  const cut = await PDFDocument.create();
  const [page] = await cut.copyPages(await PDFDocument.load(pdf), [number - 1]);
  cut.addPage(page!);
  return cut.save();
}

/** The located fields of a document as evidence, the way rules cite them. */
function evidenceOf(document: string, doc: LoanDocument, names: readonly string[]): Evidence[] {
  const fields = doc.fields as Record<string, { value: unknown; page: number; box?: Evidence['box'] } | undefined>;
  return names.map((name) => {
    const f = fields[name];
    if (!f) throw new Error(`${name} was not read`);
    return { document, page: f.page, field: name, value: String(f.value), ...(f.box && { box: f.box }) };
  });
}

const findingOf = (evidence: Evidence[]): Finding => ({
  key: 'X-001',
  code: 'X-001',
  severity: 'high',
  category: 'consistency',
  title: 't',
  summary: 's',
  evidence,
  regulation: null,
});

/** What OCR reads inside the picture's box (the box grown by a few pixels, scaled up for small print). */
async function readInBox(p: EvidencePicture): Promise<string> {
  const left = Math.floor(p.mark.left * p.width);
  const top = Math.floor(p.mark.top * p.height);
  const width = Math.max(1, Math.ceil(p.mark.right * p.width) - left);
  const height = Math.max(1, Math.ceil(p.mark.bottom * p.height) - top);
  const region = await sharp(p.png)
    .extract({ left, top, width, height })
    .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
    .resize({ width: width * 3 + 120 })
    .png()
    .toBuffer();
  const read = await ocrImage(new Uint8Array(region), 'image/png');
  return read.readable ? read.pages.map((page) => page.text).join(' ') : '';
}

async function picturesFor(bytes: Uint8Array, mime: string, evidence: Evidence[]) {
  const pictures = await evidencePictures([findingOf(evidence)], async () => openPageSource(bytes, mime));
  return evidence.map((e) => {
    const picture = pictures.get(pictureKey(e)!);
    if (!picture) throw new Error(`no picture of ${e.field}`);
    return picture;
  });
}

test(
  'a value read from a text layer is boxed where it is printed, also on a page whose crop ' + 'box is offset',
  async (t) => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    page.drawText('Settlement Statement (HUD-1)', { x: 200, y: 750, size: 14, font });
    page.drawText('I. Settlement Date: 04/15/2026', { x: 72, y: 700, size: 11, font });
    page.drawText('202. Principal amount of new loan(s)', { x: 72, y: 660, size: 11, font });
    page.drawText('$150,000.00', { x: 330, y: 660, size: 11, font });
    // A page shown from (40, 100): the viewer's origin is not user space's.
    page.setCropBox(40, 100, 540, 680);
    const bytes = await doc.save();
    const { documents } = await analyseFile('hud1.pdf', 'application/pdf', bytes);
    const evidence = evidenceOf('hud1.pdf', documents[0]!, ['loanAmount', 'settlementDate']);
    t.true(evidence.every((e) => e.box?.source === 'text_layer'));
    const [amount, date] = await picturesFor(bytes, 'application/pdf', evidence);
    t.regex(await readInBox(amount!), /\$?150,000\.00/);
    const dateRead = await readInBox(date!);
    t.regex(dateRead, /04\/15\/2026/, dateRead);
    // The picture holds the value's neighbourhood (its label), drawn at the page's size.
    t.true(amount!.width >= 300 * amount!.scale - 1);
  },
);

test('values OCR read on a straight scan and on a page photographed 1.5° off are boxed on the value', async (t) => {
  for (const degradation of [DEGRADATIONS[0]!, DEGRADATIONS[1]!]) {
    const scan = await imagePdf(await degradedPages(cd, degradation, [2]));
    const { documents } = await analyseFile('scan.pdf', 'application/pdf', scan, tesseractOcr);
    const evidence = evidenceOf('scan.pdf', documents[0]!, ['loanAmount', 'interestRate', 'dateIssued', 'loanId']);
    t.true(
      evidence.every((e) => e.box?.source === 'ocr'),
      degradation.name,
    );
    const pictures = await picturesFor(scan, 'application/pdf', evidence);
    const read = await Promise.all(pictures.map(readInBox));
    t.regex(read[0]!, /162,000/, degradation.name);
    t.regex(read[1]!, /3\.875\s?%/, degradation.name);
    t.regex(read[2]!, /4\/15\/2013/, degradation.name);
    t.regex(read[3]!, /123456789/, degradation.name);
  }
});

test(
  'values OCR read on a page scanned sideways or upside down ' + 'are pictured upright, boxed on the value',
  async (t) => {
    for (const turns of [1, 2, 3]) {
      const scan = await imagePdf(await turnedPages(await pageOf(cd, 2), [turns], { lossless: true }), TURNED_DPI);
      const { documents } = await analyseFile('turned.pdf', 'application/pdf', scan, tesseractOcr);
      const evidence = evidenceOf('turned.pdf', documents[0]!, ['loanAmount', 'interestRate']);
      t.true(evidence.every((e) => e.box?.quarterTurns === (4 - turns) % 4));
      const pictures = await picturesFor(scan, 'application/pdf', evidence);
      // Read upright as a picture: OCR of the box finds the figures, which it would not on a turned picture.
      t.regex(await readInBox(pictures[0]!), /162,000/, `turned ${turns}`);
      t.regex(await readInBox(pictures[1]!), /3\.875\s?%/, `turned ${turns}`);
    }
  },
);

test(
  'a phone picture (a JPEG file) is cut as OCR read it; a file that cannot be drawn gives no ' +
    'picture rather than failing',
  async (t) => {
    const [jpeg] = await degradedPages(cd, DEGRADATIONS[3]!, [2]);
    const bytes = new Uint8Array(jpeg!);
    const { documents } = await analyseFile('photo.jpg', 'image/jpeg', bytes, tesseractOcr);
    const evidence = evidenceOf('photo.jpg', documents[0]!, ['loanAmount', 'monthlyPrincipalAndInterest']);
    const pictures = await picturesFor(bytes, 'image/jpeg', evidence);
    t.regex(await readInBox(pictures[0]!), /162,000/);
    t.regex(await readInBox(pictures[1]!), /761\.78/);

    const broken = await evidencePictures([findingOf(evidence)], async () =>
      openPageSource(new Uint8Array([1, 2, 3]), 'application/pdf'),
    );
    t.is(broken.size, 0);
    const missing = await evidencePictures([findingOf(evidence)], async () => undefined);
    t.is(missing.size, 0);
    const pastDeadline = await evidencePictures(
      [findingOf(evidence)],
      async () => openPageSource(bytes, 'image/jpeg'),
      {
        deadline: Date.now() - 1,
      },
    );
    t.is(pastDeadline.size, 0);
  },
);
