// A form in another lender's layout: label and value in one run ("Loan Amount: $150,000.00"), labels in
// another order, values in a column under their labels, a blank form of that layout.
import test from 'ava';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { analyseFile } from '../../../../src/qc/logical-documents.js';

async function document(lines: [number, number, string][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  page.drawText('CLOSING DISCLOSURE', { x: 72, y: 740, size: 16, font: bold });
  for (const [x, y, text] of lines) page.drawText(text, { x, y, size: 10, font });
  return doc.save();
}

async function fieldsOf(bytes: Uint8Array): Promise<Record<string, unknown>> {
  const { documents } = await analyseFile('cd.pdf', 'application/pdf', bytes);
  if (documents.length !== 1 || documents[0]!.documentClass !== 'closing_disclosure')
    throw new Error(`read as ${documents.map((d) => d.documentClass)}`);
  const fields = documents[0]!.fields as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([k]) => k !== 'fees')
      .map(([k, v]) => [k, (v as { value: unknown }).value]),
  );
}

test('"Label: value" in one run, in any order, reads as on the model form', async (t) => {
  const fields = await fieldsOf(
    await document([
      [72, 700, 'Borrower: Michael Jones and Mary Stone'],
      [72, 684, 'Lender: Ficus Bank'],
      [72, 668, 'Date Issued: 04/15/2026'],
      [72, 652, 'Loan Amount: $150,000.00'],
      [72, 636, 'Interest Rate: 4.25%'],
      [72, 620, 'Loan Term: 30 years'],
      [72, 604, 'Purpose: Refinance'],
      [72, 588, 'Product: Fixed Rate'],
      [72, 572, 'Property: 456 Somewhere Ave, Anytown, ST 12345'],
    ]),
  );
  t.deepEqual(fields, {
    borrower: 'Michael Jones and Mary Stone',
    lender: 'Ficus Bank',
    dateIssued: '2026-04-15',
    loanAmount: 15_000_000,
    interestRate: 0.0425,
    loanTermMonths: 360,
    purpose: 'Refinance',
    product: 'Fixed Rate',
    property: '456 Somewhere Ave, Anytown, ST 12345',
  });
});

test('the same layout left blank gives no values: its next caption is never a value', async (t) => {
  const fields = await fieldsOf(
    await document([
      [72, 700, 'Borrower:'],
      [72, 684, 'Lender:'],
      [72, 668, 'Date Issued:'],
      [72, 652, 'Loan Amount:'],
      [72, 636, 'Interest Rate:'],
      [72, 620, 'Loan Term:'],
      [72, 604, 'Purpose:'],
      [72, 588, 'Product:'],
      [72, 572, 'Property:'],
    ]),
  );
  t.deepEqual(fields, {});
});

test('values set under their labels, in boxes across the page, read as well', async (t) => {
  const fields = await fieldsOf(
    await document([
      [72, 700, 'Loan Amount'],
      [230, 700, 'Interest Rate'],
      [390, 700, 'Loan Term'],
      [72, 686, '$150,000.00'],
      [230, 686, '4.25%'],
      [390, 686, '30 years'],
      [72, 660, 'Borrower'],
      [300, 660, 'Lender'],
      [72, 646, 'Michael Jones'],
      [300, 646, 'Ficus Bank'],
    ]),
  );
  t.deepEqual(fields, {
    loanAmount: 15_000_000,
    interestRate: 0.0425,
    loanTermMonths: 360,
    borrower: 'Michael Jones',
    lender: 'Ficus Bank',
  });
});

test(
  'a filled HUD-1 settlement statement gives its loan amount and settlement date; a fee line ' +
    'naming a credit report does not make it one',
  async (t) => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    page.drawText('A. Settlement Statement (HUD-1)', { x: 200, y: 750, size: 14, font });
    page.drawText('I. Settlement Date: 04/15/2026', { x: 72, y: 700, size: 9, font });
    page.drawText('202. Principal amount of new loan(s)', { x: 72, y: 660, size: 9, font });
    page.drawText('$150,000.00', { x: 250, y: 660, size: 9, font });
    page.drawText('804. Credit report to Acme Credit Bureau', { x: 72, y: 620, size: 9, font });
    page.drawText('$25.00', { x: 250, y: 620, size: 9, font });
    const { documents } = await analyseFile('hud1.pdf', 'application/pdf', await doc.save());
    const withoutBoxes = documents.map((d) => [
      d.documentClass,
      Object.fromEntries(Object.entries(d.fields).map(([k, v]) => [k, { ...v, box: undefined }])),
    ]);
    t.deepEqual(withoutBoxes, [
      [
        'settlement_statement',
        {
          loanAmount: { value: 15_000_000, page: 1, box: undefined },
          settlementDate: { value: '2026-04-15', page: 1, box: undefined },
        },
      ],
    ]);
    // Each value is boxed where it was printed: the amount's own run, the date after the label in its run.
    const fields = documents[0]!.fields as Record<
      string,
      { box?: { x0: number; y0: number; x1: number; y1: number; source: string } }
    >;
    const amount = fields.loanAmount!.box!;
    t.is(amount.source, 'text_layer');
    t.is(amount.x0, 250);
    t.true(Math.abs(amount.x1 - (250 + font.widthOfTextAtSize('$150,000.00', 9))) < 0.5);
    t.true(amount.y0 < 660 && amount.y1 > 666 && amount.y1 < 670, `${amount.y0}..${amount.y1}`);
    const date = fields.settlementDate!.box!;
    const labelEnd = 72 + font.widthOfTextAtSize('I. Settlement Date: ', 9);
    t.true(Math.abs(date.x0 - labelEnd) < 1.5, `the date starts at ${date.x0}, the label ends at ${labelEnd}`);
    t.true(Math.abs(date.x1 - (72 + font.widthOfTextAtSize('I. Settlement Date: 04/15/2026', 9))) < 1.5, `${date.x1}`);
    t.true(date.y0 < 700 && date.y1 > 706);
  },
);

test(
  'a mark between label and value ("Date Issued — 04/15/2026") belongs to neither: the value is ' +
    "read, a credit's dash is not made of it",
  async (t) => {
    const fields = await fieldsOf(
      await document([
        [72, 700, 'Date Issued — 04/15/2026'],
        [72, 684, 'Loan Amount — $150,000.00'],
      ]),
    );
    t.deepEqual(fields, { dateIssued: '2026-04-15', loanAmount: 15_000_000 });
  },
);

test('a label wrapped over two lines is read as one, its value beside either line', async (t) => {
  const beside = async (y: number) =>
    fieldsOf(
      await document([
        [72, 700, 'Monthly Principal'],
        [72, 688, '& Interest'],
        [250, y, '$761.78'],
      ]),
    );
  t.deepEqual(await beside(688), { monthlyPrincipalAndInterest: 76_178 }, 'beside its second line, as OCR sets it');
  t.deepEqual(await beside(700), { monthlyPrincipalAndInterest: 76_178 }, 'beside its first line');
});
