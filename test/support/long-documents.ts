// Long documents as loan files carry them: an appraisal report (the public URAR sample's form pages)
// followed by its addenda, photo pages, maps, sketch, certification and invoice; a Note with its riders,
// addendum and allonge; a Deed of Trust with its legal-description exhibit and riders. Each page knows the
// document it belongs to, so that a bundle of them (between other forms) can be checked page by page.
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

const corpus = new URL('../corpus/', import.meta.url);

/** One page to draw: its lines top to bottom, and grey boxes standing for photos, a map or a sketch. */
interface PageSpec {
  lines: string[];
  pictures?: number;
  size?: number;
}

export interface LongDocument {
  name: string;
  pages: PageSpec[];
  /** How many of its pages are the form's own, before what it appends. */
  formPages?: number;
}

/**
 * The URAR sample's form pages, from its plain text (the PDF itself is encrypted and cannot be copied),
 * filled in: the subject's address, and the opinion of value with its effective date.
 */
function urarFormPages(): PageSpec[] {
  const text = readFileSync(new URL('public-docs/ground_truth/urar_form_1004_epa.txt', corpus), 'utf8');
  const filled = text
    .replace(/^Property Address\s*$/m, 'Property Address 41 Elm St, Columbus, OH 43215')
    .replace(
      /(subject of this report is\s*)\n\$\s*\n\s*, as of\s*$/m,
      '$1\n$ 310,000 , as of 03/15/2024 , which is the date of inspection and the effective date of this appraisal.',
    );
  if (filled === text) throw new Error('the URAR sample no longer reads as expected');
  return filled
    .split('\f')
    .filter((page) => page.trim() !== '')
    .map((page) => ({ lines: page.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()), size: 4 }));
}

const FILE_NO = 'File No. 2024-0815-AP';
const header = (what: string) => [
  what,
  `Borrower John Smith ${FILE_NO}`,
  'Property Address 41 Elm St, Columbus, OH 43215',
];

/** The appraisal: the sample's form pages, then 15 pages of every kind an appraisal report appends. */
export function appraisalWithAddenda(): LongDocument {
  const form = urarFormPages();
  return {
    name: 'appraisal',
    formPages: form.length,
    pages: [
      ...form,
      {
        lines: [
          ...header('Supplemental Addendum'),
          'Neighborhood: the subject is in an established area of single-family homes.',
        ],
      },
      {
        lines: [
          ...header('Supplemental Addendum (continued)'),
          'Reconciliation: the sales comparison is given weight.',
        ],
      },
      {
        lines: [
          ...header('Subject Photo Page'),
          'FRONT VIEW OF SUBJECT PROPERTY',
          'REAR VIEW OF SUBJECT',
          'STREET SCENE',
        ],
        pictures: 3,
      },
      {
        lines: [
          ...header('Comparable Photo Page'),
          'Comparable Sale 1 18 Oak Ave',
          'Comparable Sale 2 9 Pine Rd',
          'Comparable Sale 3 5 Maple Dr',
        ],
        pictures: 3,
      },
      { lines: [...header('Comparable Photos 4-6'), 'Comparable 4 3 Ash Ct', 'Comparable 5 77 Birch Ln'], pictures: 2 },
      { lines: [...header('Interior Photos'), 'Kitchen', 'Living room', 'Bath'], pictures: 3 },
      { lines: [...header('Location Map'), 'Subject 41 Elm St'], pictures: 1 },
      { lines: [...header('Plat Map')], pictures: 1 },
      { lines: [...header('Flood Map'), 'FEMA Zone X Map 39049C0326K'], pictures: 1 },
      { lines: [...header('Building Sketch'), 'GLA 1,850 sq ft', 'Garage 440 sq ft'], pictures: 1 },
      { lines: [...header('Aerial Map')], pictures: 1 },
      // Pages only the report's file number ties to it.
      { lines: [`Appraiser License ${FILE_NO}`, 'State of Ohio Certified Residential Appraiser No. 2001234'] },
      { lines: [`Errors and Omissions Insurance ${FILE_NO}`, 'Policy period 01/01/2024 to 01/01/2025'] },
      {
        lines: [
          ...header("Appraiser's Certification"),
          'I certify that, to the best of my knowledge and belief, the statements of fact are true.',
          'Signature Jane Roe',
        ],
      },
      { lines: [...header('Invoice'), 'Appraisal fee $650.00', 'Amount due $650.00'] },
    ],
  };
}

/** A Note of three numbered pages with a prepayment rider, an addendum and an allonge. */
export function noteWithRiders(): LongDocument {
  const footer = (n: number) => `MULTISTATE FIXED RATE NOTE - Single Family - Form 3200 1/01 Page ${n} of 3`;
  return {
    name: 'note',
    pages: [
      {
        lines: [
          'NOTE',
          'March 1, 2024 Columbus, Ohio',
          '41 Elm St, Columbus OH 43215',
          '1. BORROWER’S PROMISE TO PAY',
          'In return for a loan that I have received, I promise to pay U.S. $240,000.00 (this amount is called "Principal"),',
          'plus interest, to the order of the Lender. The Lender is First Bank.',
          '2. INTEREST',
          'I will pay interest at a yearly rate of 6.500%.',
          footer(1),
        ],
      },
      { lines: ['3. PAYMENTS', 'My monthly payment will be in the amount of U.S. $1,516.96.', footer(2)] },
      { lines: ['7. BORROWER’S FAILURE TO PAY AS REQUIRED', 'WITNESS THE HAND(S) AND SEAL(S)', footer(3)] },
      { lines: ['PREPAYMENT RIDER', 'This Prepayment Rider is made this 1st day of March, 2024', 'Page 1 of 1'] },
      { lines: ['ADDENDUM TO NOTE', 'This Addendum is made this 1st day of March, 2024 and amends the Note.'] },
      { lines: ['ALLONGE TO NOTE', 'Pay to the order of Second Bank, without recourse.', 'First Bank'] },
    ],
  };
}

/** A Deed of Trust of four numbered pages with its legal description and two riders numbered on their own. */
export function deedWithExhibitsAndRiders(): LongDocument {
  const footer = (n: number) =>
    `OHIO - Single Family - Fannie Mae/Freddie Mac UNIFORM INSTRUMENT Form 3036 1/01 Page ${n} of 4`;
  return {
    name: 'deed',
    pages: [
      { lines: ['DEED OF TRUST', 'DEFINITIONS', '(A) "Security Instrument" means this document.', footer(1)] },
      { lines: ['TRANSFER OF RIGHTS IN THE PROPERTY', 'UNIFORM COVENANTS', footer(2)] },
      { lines: ['NON-UNIFORM COVENANTS', footer(3)] },
      { lines: ['BY SIGNING BELOW, Borrower accepts and agrees to the terms', footer(4)] },
      { lines: ['EXHIBIT A', 'LEGAL DESCRIPTION', 'Lot 7, Block 3, Elm Park Subdivision, Franklin County, Ohio'] },
      {
        lines: [
          '1-4 FAMILY RIDER',
          '(Assignment of Rents)',
          'THIS 1-4 FAMILY RIDER is made this 1st day of March, 2024',
          'MULTISTATE 1-4 FAMILY RIDER - Fannie Mae/Freddie Mac UNIFORM INSTRUMENT Form 3170 1/01 Page 1 of 2',
        ],
      },
      {
        lines: [
          'F. BORROWER’S OCCUPANCY',
          'MULTISTATE 1-4 FAMILY RIDER - Fannie Mae/Freddie Mac UNIFORM INSTRUMENT Form 3170 1/01 Page 2 of 2',
        ],
      },
      { lines: ['CONDOMINIUM RIDER', 'THIS CONDOMINIUM RIDER is made this 1st day of March, 2024', 'Page 1 of 1'] },
    ],
  };
}

function drawPage(page: PDFPage, spec: PageSpec, font: PDFFont, bold: PDFFont): void {
  const size = spec.size ?? 10;
  const leading = size * 1.45;
  let y = page.getHeight() - 30;
  spec.lines.forEach((line, i) => {
    // Characters Helvetica cannot encode are dropped: the text is what matters.
    const text = line.replace(/[^\x20-\x7e’]/g, '').slice(0, 200);
    if (text !== '')
      page.drawText(text, { x: 36, y, size: i === 0 && !spec.size ? 14 : size, font: i === 0 ? bold : font });
    y -= i === 0 && !spec.size ? 22 : leading;
  });
  // Photos, a map or a sketch: grey boxes below the lines.
  for (let p = 0; p < (spec.pictures ?? 0); p++)
    page.drawRectangle({ x: 72, y: y - 20 - (p + 1) * 190, width: 300, height: 170, color: rgb(0.6, 0.6, 0.6) });
}

/** A loan file with the long documents between other forms of the corpus: each page's document known. */
export function loanFileWithLongDocuments(): (LongDocument | string)[] {
  return [
    'cfpb/cd_sample_fixed_rate_h25b.pdf',
    appraisalWithAddenda(),
    'cfpb/le_sample_fixed_rate_h24b.pdf',
    noteWithRiders(),
    deedWithExhibitsAndRiders(),
    'public-docs/clean/paystub_okafor.pdf',
  ];
}

export interface LongBundle {
  bytes: Uint8Array;
  /** For each page (1-based, in order), the document it belongs to. */
  pages: { page: number; source: string }[];
}

/**
 * One PDF of `parts` in order: a long document's pages drawn, or a corpus file's pages copied (its path
 * under test/corpus).
 */
export async function longBundle(parts: readonly (LongDocument | string)[]): Promise<LongBundle> {
  const out = await PDFDocument.create();
  const font = await out.embedFont(StandardFonts.Helvetica);
  const bold = await out.embedFont(StandardFonts.HelveticaBold);
  const pages: LongBundle['pages'] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      const source = await PDFDocument.load(readFileSync(new URL(part, corpus)));
      for (const page of await out.copyPages(source, source.getPageIndices())) {
        out.addPage(page);
        pages.push({ page: pages.length + 1, source: part });
      }
      continue;
    }
    for (const spec of part.pages) {
      // A form page of many short lines (the sample's text, a label a line) is as tall as they need.
      const height = Math.max(792, spec.lines.length * (spec.size ?? 10) * 1.45 + 60);
      drawPage(out.addPage([612, height]), spec, font, bold);
      pages.push({ page: pages.length + 1, source: part.name });
    }
  }
  return { bytes: await out.save(), pages };
}
