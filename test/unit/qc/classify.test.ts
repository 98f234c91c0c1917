// Classification by the titles a page prints, and splitting of multi-document files by page (CFPB
// samples with their cover sheets, prose that mentions forms, restarting page numbers).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { pageClass, pageFooter, splitDocuments } from '../../../src/qc/classify.js';
import { analyseFile } from '../../../src/qc/logical-documents.js';
import { corruptPdf, pdf } from '../../support/fixtures.js';

const corpus = new URL('../../corpus/cfpb/', import.meta.url);

for (const [file, expected] of [
  ['cd_sample_fixed_rate_h25b.pdf', 'closing_disclosure'],
  ['cd_sample_refi_excess_cost_h25f1.pdf', 'closing_disclosure'],
  ['le_sample_fixed_rate_h24b.pdf', 'loan_estimate'],
  ['le_sample_arm_interest_only_h24c.pdf', 'loan_estimate'],
] as const) {
  test(`the CFPB sample ${file} is one ${expected}, its cover sheet included`, async (t) => {
    const { documents } = await analyseFile(file, 'application/pdf', readFileSync(new URL(file, corpus)));
    t.deepEqual(
      documents.map((d) => [d.documentClass, d.pages[0]?.number]),
      [[expected, 1]],
    );
  });
}

test('a title is a line of its own near the top of a page', (t) => {
  t.is(pageClass(['NOTE', 'May 1, 2026']), 'note');
  t.is(pageClass(['DEED OF TRUST']), 'security_instrument');
  t.is(pageClass(['Uniform Residential Loan Application']), 'urla');
  t.is(pageClass(['Uniform Residential Appraisal Report']), 'appraisal');
  t.is(pageClass(['Earnings Statement']), 'pay_stub');
  t.is(pageClass(['Form W-2 Wage and Tax Statement 2025']), 'w2');
  t.is(pageClass(['First Bank', 'Checking Statement']), 'bank_statement');
  t.is(pageClass(['Residential Mortgage Credit Report']), 'credit_report');
  t.is(pageClass(['Note: bring two forms of ID']), null);
  t.is(pageClass(['See your note and security instrument for information about']), null);
  t.is(
    pageClass(['Other Disclosures', 'CLOSING DISCLOSURE PAGE 5 OF 5 • LOAN ID # 1']),
    'closing_disclosure',
    'the running footer',
  );
});

test('"Page x of y" footers are read from the foot of the page', (t) => {
  t.deepEqual(pageFooter(['NOTE', 'text', 'Page 2 of 3']), { index: 2, of: 3 });
  t.is(pageFooter(['Page 4 of 3']), undefined);
});

test('a multi-document file splits where a page announces another form or restarts its numbering', (t) => {
  const runs = splitDocuments([
    ['Fax cover sheet', 'To: underwriting'],
    ['NOTE', 'Page 1 of 2'],
    ['more terms', 'Page 2 of 2'],
    ['DEED OF TRUST', 'Page 1 of 1'],
    ['Earnings Statement', 'Page 1 of 1'],
    ['Earnings Statement', 'Page 1 of 1'],
  ]);
  t.deepEqual(runs, [
    { documentClass: 'note', pages: [0, 1, 2] },
    { documentClass: 'security_instrument', pages: [3] },
    { documentClass: 'pay_stub', pages: [4] },
    { documentClass: 'pay_stub', pages: [5] },
  ]);
});

test('a file with no title is one document of class other', async (t) => {
  const { documents } = await analyseFile('letter.pdf', 'application/pdf', await pdf('Dear borrower, thank you.'));
  t.deepEqual(
    documents.map((d) => d.documentClass),
    ['other'],
  );
});

test('a PDF that cannot be parsed is unreadable, not an exception', async (t) => {
  const result = await analyseFile('broken.pdf', 'application/pdf', corruptPdf);
  t.deepEqual(result.documents, []);
  t.truthy(result.unreadable);
});

test('a page whose content stream is damaged reads as empty; the rest of the file is still read', async (t) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('NOTE', { x: 72, y: 700, size: 12, font });
  const damaged = doc.addPage([612, 792]);
  damaged.node.set(
    PDFName.of('Contents'),
    doc.context.register(doc.context.stream(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { Filter: 'FlateDecode' })),
  );
  damaged.node.set(PDFName.of('Resources'), doc.context.obj(7));
  const { documents, unreadable } = await analyseFile('note.pdf', 'application/pdf', await doc.save());
  t.is(unreadable, null);
  t.deepEqual(
    documents.map((d) => [d.documentClass, d.pages.map((p) => p.number)]),
    [['note', [1, 2]]],
  );
});

test(
  'a title keeps its class with the prefixes and suffixes real titles carry; prose, column heads ' +
    'and fee lines are no titles',
  (t) => {
    t.is(pageClass(['Closing Disclosure — CORRECTED COPY']), 'closing_disclosure');
    t.is(pageClass(['Closing Disclosure (Page 1)']), 'closing_disclosure');
    t.is(pageClass(['Final Closing Disclosure']), 'closing_disclosure');
    t.is(pageClass(['EARNINGS STATEMENT / PAY SLIP']), 'pay_stub');
    t.is(pageClass(['Borrower Stated Income Affidavit']), 'affidavit');
    t.is(pageClass(['A. Settlement Statement']), 'settlement_statement');
    t.is(pageClass(['ALTA Combined Settlement Statement']), 'settlement_statement');
    t.is(pageClass(['Form 1040 U.S. Individual Income Tax Return 2025']), 'tax_return');
    t.is(pageClass(['Written List of Service Providers']), 'service_provider_list');
    t.is(pageClass(['HUD/VA Addendum to Uniform Residential Loan Application']), 'urla');
    t.is(pageClass(['Declaración de Cierre']), 'closing_disclosure');
    t.is(pageClass(['Estimación de Préstamo']), 'loan_estimate');
    t.is(pageClass(['Save this Loan Estimate to compare with your Closing Disclosure.']), null);
    t.is(pageClass(['804. Credit report to Acme Credit Bureau']), null, 'a HUD-1 fee line names a form');
    t.is(pageClass(['Notes payable']), null);
  },
);

test("a title in a heading's size counts anywhere on the page; in body size only near the top", (t) => {
  const body = Array.from({ length: 12 }, (_, i) => `Box ${i + 1}`);
  t.is(pageClass([...body, 'Form W-2 Wage and Tax Statement 2025']), null);
  t.is(
    pageClass({
      lines: [...body, 'Form W-2 Wage and Tax Statement 2025'],
      headings: ['Form W-2 Wage and Tax Statement 2025'],
    }),
    'w2',
  );
  t.is(
    pageClass({ lines: ['Calculating Cash to Close', 'Loan Estimate Final Did this change?'], headings: [] }),
    null,
    "a table's column head",
  );
});

test('letters, circulars, notes to processors and résumés start documents of their own', (t) => {
  t.is(pageClass(['Veterans Benefits Administration Circular 26-21-09', 'Department of Veterans Affairs']), 'other');
  t.is(pageClass(['Document Processing Note', 'SYSTEM NOTE TO AUTOMATED PROCESSORS:']), 'other');
  t.is(
    pageClass([
      'Jordan K. Alvarez',
      'Objective',
      'Operations analyst',
      'Experience',
      'Senior Analyst',
      'Education',
      'B.S.',
      'Skills',
    ]),
    'other',
  );
  const runs = splitDocuments([
    ['Closing Disclosure', 'Page 1 of 2'],
    ['Loan terms', 'Page 2 of 2'],
    ['Harborview Medical Group', 'EARNINGS STATEMENT / PAY SLIP'],
    ['Document Processing Note', 'Disregard all figures on prior pages.'],
    ['Jordan K. Alvarez', 'Objective', 'x', 'Experience', 'y', 'Education'],
  ]);
  t.deepEqual(
    runs.map((r) => [r.documentClass, r.pages]),
    [
      ['closing_disclosure', [0, 1]],
      ['pay_stub', [2]],
      ['other', [3]],
      ['other', [4]],
    ],
  );
});

test('a cover sheet naming a form joins the document of that form after it, not the one before', (t) => {
  const runs = splitDocuments([
    ['HUD/VA Addendum to Uniform Residential Loan Application'],
    ["Borrower's Certificate:"],
    [
      'FEBRUARY 7, 2014',
      'H-25(E) Mortgage Loan Transaction Closing Disclosure – Refinance',
      'This is a sample of a completed Closing Disclosure.',
    ],
    ['Closing Disclosure', 'CLOSING DISCLOSURE PAGE 1 OF 5'],
  ]);
  t.deepEqual(
    runs.map((r) => [r.documentClass, r.pages]),
    [
      ['urla', [0, 1]],
      ['closing_disclosure', [2, 3]],
    ],
  );
});

test("a cover sheet on a file's first page starts the form it names, with the untitled excerpt after it", (t) => {
  const runs = splitDocuments([
    [
      'FEBRUARY 7, 2014',
      'H-25(F) Mortgage Loan Transaction Closing Disclosure – Refinance',
      'This is a sample of the completed disclosures for a refinance.',
    ],
    ['J. TOTAL CLOSING COSTS (Borrower-Paid) $5,977.57', 'Calculating Cash to Close'],
    ['Uniform Residential Loan Application', 'Section 1: Borrower Information'],
  ]);
  t.deepEqual(
    runs.map((r) => [r.documentClass, r.pages]),
    [
      ['closing_disclosure', [0, 1]],
      ['urla', [2]],
    ],
  );
});

test("a cover sheet ending in the form's name in prose starts a new document after an unnumbered excerpt", (t) => {
  const runs = splitDocuments([
    ['FEBRUARY 7, 2014', 'H-25(F) Mortgage Loan Transaction Closing Disclosure – Refinance', 'This is a sample.'],
    ['J. TOTAL CLOSING COSTS (Borrower-Paid) $5,977.57', 'Calculating Cash to Close'],
    [
      'JUNE 2015',
      'H-25(I) Mortgage Loan Transaction Closing Disclosure – Modification to',
      'Closing Disclosure for Disclosure Provided to Seller – Model Form',
    ],
    ['Closing Disclosure', 'Closing Information', 'CLOSING DISCLOSURE PAGE 1 OF 2'],
    ['Closing Cost Details', 'CLOSING DISCLOSURE PAGE 2 OF 2'],
  ]);
  t.deepEqual(
    runs.map((r) => [r.documentClass, r.pages]),
    [
      ['closing_disclosure', [0, 1]],
      ['closing_disclosure', [2, 3, 4]],
    ],
  );
});

/** A Closing Disclosure's page as the classifier reads it: its running footer, the first page its title too. */
const cdPage = (n: number, of = 5, title = 'Closing Disclosure') => [
  ...(n === 1 ? [title, 'Date Issued 4/15/2013'] : ['Loan Costs']),
  'Loan Amount $162,000',
  `CLOSING DISCLOSURE PAGE ${n} OF ${of} • LOAN ID # 123456789`,
];

test(
  'a corrected copy after a complete CD is a Closing Disclosure of ' +
    'its own, and a W-2’s instruction page joins the W-2',
  (t) => {
    const runs = splitDocuments([
      ...[1, 2, 3, 4, 5].map((n) => cdPage(n)),
      // The corrected copy prints its own title, without restarting any numbering.
      ['Closing Disclosure — CORRECTED COPY (supersedes all prior versions)', 'Loan Amount $172,000'],
      ['Attention:', 'You may file Forms W-2 and W-3 electronically on the SSA’s Employer', 'W-2 Filing Instructions'],
      ['Form W-2 Wage and Tax Statement 2025', 'a Employee’s social security number'],
      ['Form W-2 Wage and Tax Statement 2025', 'Copy C—For EMPLOYEE’S RECORDS'],
    ]);
    t.deepEqual(
      runs.map((r) => [r.documentClass, r.pages]),
      [
        ['closing_disclosure', [0, 1, 2, 3, 4]],
        ['closing_disclosure', [5]],
        ['w2', [6, 7, 8]],
      ],
    );
  },
);

test(
  'after a complete document, the same form’s title starts another; an ' +
    'untitled page introduces what follows or is other',
  (t) => {
    const twoCds = splitDocuments([
      ...[1, 2].map((n) => cdPage(n, 2)),
      ['Please read this disclosure carefully'],
      ...[1, 2].map((n) => cdPage(n, 2)),
    ]);
    t.deepEqual(
      twoCds.map((r) => [r.documentClass, r.pages]),
      [
        ['closing_disclosure', [0, 1]],
        ['closing_disclosure', [2, 3, 4]],
      ],
    );
    // A page left over at the end belongs to nothing: not silently the last page of the CD.
    const leftOver = splitDocuments([...[1, 2].map((n) => cdPage(n, 2)), ['Thank you for your business']]);
    t.deepEqual(
      leftOver.map((r) => [r.documentClass, r.pages]),
      [
        ['closing_disclosure', [0, 1]],
        ['other', [2]],
      ],
    );
    // An incomplete document keeps its untitled pages, as before.
    const open = splitDocuments([cdPage(1), ['Loan Costs continued']]);
    t.deepEqual(
      open.map((r) => [r.documentClass, r.pages]),
      [['closing_disclosure', [0, 1]]],
    );
    // A disclosure issued again prints another Date Issued, though its numbering runs on and its title is the same.
    const reissued = splitDocuments([
      ['Closing Disclosure', 'Date Issued 4/15/2013 Borrower Michael Jones', 'Page 1 of 5'],
      ['Loan Costs', 'Page 2 of 5'],
      ['Closing Disclosure', 'Date Issued 4/22/2013 Borrower Michael Jones', 'Page 3 of 5'],
      ['Closing Disclosure', 'Date Issued 4/22/2013', 'Page 4 of 5'],
    ]);
    t.deepEqual(
      reissued.map((r) => [r.documentClass, r.pages]),
      [
        ['closing_disclosure', [0, 1]],
        ['closing_disclosure', [2, 3]],
      ],
    );
    // A revised Loan Estimate says so in its title: a new document though its numbering never restarts.
    const revised = splitDocuments([['Loan Estimate'], ['Revised Loan Estimate']]);
    t.deepEqual(
      revised.map((r) => [r.documentClass, r.pages]),
      [
        ['loan_estimate', [0]],
        ['loan_estimate', [1]],
      ],
    );
  },
);

test(
  'two pay stubs in a row are two documents; a numbered form ' + 'repeating its title, and a form’s copies, are one',
  (t) => {
    const stubs = splitDocuments([
      ['Brightline Data Systems Inc', 'EARNINGS STATEMENT / PAY SLIP', 'Pay Date 03/13/2026'],
      ['Brightline Data Systems Inc', 'EARNINGS STATEMENT / PAY SLIP', 'Pay Date 03/27/2026'],
    ]);
    t.deepEqual(
      stubs.map((r) => [r.documentClass, r.pages]),
      [
        ['pay_stub', [0]],
        ['pay_stub', [1]],
      ],
    );
    const appraisal = splitDocuments([
      ['Uniform Residential Appraisal Report File #', 'Subject', 'Page 1 of 2'],
      ['Uniform Residential Appraisal Report File #', 'Sales Comparison Approach', 'Page 2 of 2'],
    ]);
    t.deepEqual(
      appraisal.map((r) => [r.documentClass, r.pages]),
      [['appraisal', [0, 1]]],
    );
    const copies = splitDocuments([
      ['Form W-2 Wage and Tax Statement 2025', 'Copy B—To Be Filed With Employee’s FEDERAL Tax Return'],
      ['Form W-2 Wage and Tax Statement 2025', 'Copy C—For EMPLOYEE’S RECORDS'],
    ]);
    t.deepEqual(
      copies.map((r) => [r.documentClass, r.pages]),
      [['w2', [0, 1]]],
    );
  },
);

/** An appraisal's form page: its title, the form's own numbering, and the report's file number. */
const urarPage = (n: number, file = '') => [
  'Uniform Residential Appraisal Report',
  `File # ${file}`,
  `Freddie Mac Form 70 March 2005 Page ${n} of 6`,
  'Property Address 41 Elm St',
];

test(
  'an appraisal keeps its addenda, photo pages, maps, sketch, certification and invoice, and pages numbered ' +
    'or filed as the report, until another known form starts',
  (t) => {
    const addenda = [
      ['Supplemental Addendum', 'File No. 2024-0815', 'Neighborhood description continued from page 1'],
      ['SUPPLEMENTAL ADDENDUM (continued)', 'The subject is a two-story colonial.'],
      ['Borrower John Smith', 'Subject Photo Page', 'FRONT VIEW OF SUBJECT PROPERTY', 'REAR VIEW OF SUBJECT'],
      ['Comparable Photo Page', 'Comparable Sale 1', '18 Oak Ave', 'Comparable Sale 2', '9 Pine Rd'],
      ['Comparable 4', '3 Ash Ct', 'Comparable 5', '77 Birch Ln', 'Comparable 6'],
      ['Interior Photos', 'Kitchen', 'Living room'],
      ['LOCATION MAP', 'Subject 41 Elm St'],
      ['Plat Map'],
      ['FLOOD MAP', 'Zone X'],
      ['Building Sketch', 'Living Area 1,850 sq ft'],
      ['Aerial Map'],
      // Only the report's file number says whose page this is.
      ['Appraiser license', 'State of Ohio', 'File # 2024-0815'],
      ["APPRAISER'S CERTIFICATION", 'I certify that, to the best of my knowledge and belief'],
      ['Signature Page', 'Appraiser Jane Roe'],
      ['Invoice', 'Appraisal fee $650.00'],
    ];
    const runs = splitDocuments([
      ...[1, 2, 3, 4, 5, 6].map((n) => urarPage(n)),
      ...addenda,
      ...[1, 2].map((n) => cdPage(n, 2)),
    ]);
    t.deepEqual(
      runs.map((r) => [r.documentClass, r.pages.length]),
      [
        ['appraisal', 6 + addenda.length],
        ['closing_disclosure', 2],
      ],
    );
    // The report's own numbering runs on past its form's: "Page 7 of 9" after "Page 6 of 6" and "Page 6 of 9".
    const numbered = splitDocuments([
      ...[1, 2, 3, 4, 5, 6].map((n) => [...urarPage(n), `Page ${n} of 9`]),
      ...[7, 8, 9].map((n) => ['Lender: First Bank', 'Borrower: John Smith', 'Property notes', `Page ${n} of 9`]),
      ['Thank you for your business'],
    ]);
    t.deepEqual(
      numbered.map((r) => [r.documentClass, r.pages]),
      [
        ['appraisal', [0, 1, 2, 3, 4, 5, 6, 7, 8]],
        ['other', [9]],
      ],
    );
    // Another form, even filed under the report's number, starts its own document.
    const another = splitDocuments([
      ...[1, 2, 3, 4, 5, 6].map((n) => urarPage(n, '2024-0815')),
      ['Closing Disclosure', 'File # 2024-0815', 'CLOSING DISCLOSURE PAGE 1 OF 1'],
    ]);
    t.deepEqual(
      another.map((r) => [r.documentClass, r.pages.length]),
      [
        ['appraisal', 6],
        ['closing_disclosure', 1],
      ],
    );
  },
);

test('a Note keeps its riders, addendum and allonge; a Deed of Trust its exhibits and riders, each numbered on its own', (t) => {
  const note = [1, 2, 3].map((n) => [
    ...(n === 1 ? ['NOTE'] : ['5. BORROWER’S RIGHT TO PREPAY']),
    `MULTISTATE FIXED RATE NOTE—Single Family Form 3200 1/01 Page ${n} of 3`,
  ]);
  const deed = [1, 2, 3, 4].map((n) => [
    ...(n === 1 ? ['DEED OF TRUST'] : ['UNIFORM COVENANTS']),
    `Form 3005 1/01 Page ${n} of 4`,
  ]);
  const runs = splitDocuments([
    ...note,
    ['PREPAYMENT RIDER', 'Form 3200 Page 1 of 1'],
    ['ADDENDUM TO NOTE', 'This Addendum is made this 1st day of March'],
    ['ALLONGE TO NOTE', 'Pay to the order of'],
    ...deed,
    ['EXHIBIT A', 'LEGAL DESCRIPTION', 'Lot 7, Block 3'],
    ['1-4 FAMILY RIDER', '(Assignment of Rents)', 'MULTISTATE 1-4 FAMILY RIDER Form 3170 1/01 Page 1 of 2'],
    ['F. BORROWER’S OCCUPANCY', 'MULTISTATE 1-4 FAMILY RIDER Form 3170 1/01 Page 2 of 2'],
    ['CONDOMINIUM RIDER', 'Form 3140 1/01 Page 1 of 1'],
    ['Harborview Medical Group', 'EARNINGS STATEMENT / PAY SLIP'],
  ]);
  t.deepEqual(
    runs.map((r) => [r.documentClass, r.pages]),
    [
      ['note', [0, 1, 2, 3, 4, 5]],
      ['security_instrument', [6, 7, 8, 9, 10, 11, 12, 13]],
      ['pay_stub', [14]],
    ],
  );
});
