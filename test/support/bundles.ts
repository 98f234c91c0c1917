// Loan files assembled from the corpus's documents (test/corpus), in seeded orders, each page's own document
// known: how lenders send a whole file as one PDF. Some documents get a cover sheet before them that names
// their form, as a processor's fax or an LOS export prints one; it belongs to the document it introduces.
import { readdirSync, readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { seededRandom } from './seeded-random.js';

const corpus = new URL('../corpus/', import.meta.url);

/** A corpus file that is one document, and the form name a cover sheet for it prints (none: no cover). */
export interface CorpusDocument {
  file: string;
  cover?: string;
}

const COVER_NAMES: [RegExp, string][] = [
  [/^cd_/, 'Closing Disclosure'],
  [/^le_/, 'Loan Estimate'],
  [/^paystub_/, 'Earnings Statement'],
  [/^irs_w2/, 'Wage and Tax Statement'],
  [/^urar_/, 'Uniform Residential Appraisal Report'],
  [/^hud1_/, 'Settlement Statement'],
  [/^urla_/, 'Uniform Residential Loan Application'],
];

/**
 * Every corpus file that is one document: the CFPB samples, the clean and official forms, or their scans;
 * not an encrypted one.
 */
export function corpusDocuments(kind: 'text' | 'scan'): CorpusDocument[] {
  const folders = kind === 'text' ? ['cfpb', 'public-docs/clean', 'public-docs/urla-official'] : ['public-docs/scans'];
  return folders.flatMap((folder) =>
    readdirSync(new URL(`${folder}/`, corpus))
      // The URAR's PDF is encrypted: its pages cannot be copied into another file (its scan can).
      .filter((f) => f.endsWith('.pdf') && !readFileSync(new URL(`${folder}/${f}`, corpus)).includes('/Encrypt'))
      .sort()
      .map((f) => {
        const cover = COVER_NAMES.find(([pattern]) => pattern.test(f))?.[1];
        return { file: `${folder}/${f}`, ...(cover ? { cover } : {}) };
      }),
  );
}

export interface AssembledBundle {
  name: string;
  bytes: Uint8Array;
  /** For each page (1-based, in order), the document it belongs to. */
  pages: { page: number; source: string }[];
}

/**
 * `count` loan files of the documents in a seeded order each (every document once per file), a cover sheet
 * before about a third of those that name a form.
 */
export async function assembleBundles(
  documents: readonly CorpusDocument[],
  count: number,
  seed = 1,
): Promise<AssembledBundle[]> {
  const next = seededRandom(seed);
  const loaded = await Promise.all(
    documents.map(async (d) => ({ ...d, pdf: await PDFDocument.load(readFileSync(new URL(d.file, corpus))) })),
  );
  const bundles: AssembledBundle[] = [];
  for (let b = 0; b < count; b++) {
    const order = [...loaded];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const out = await PDFDocument.create();
    const font = await out.embedFont(StandardFonts.Helvetica);
    const bold = await out.embedFont(StandardFonts.HelveticaBold);
    const pages: AssembledBundle['pages'] = [];
    for (const doc of order) {
      const source = doc.file;
      if (doc.cover && next() < 0.35) {
        const cover = out.addPage([612, 792]);
        cover.drawText('FAX COVER SHEET', { x: 72, y: 720, size: 18, font: bold });
        cover.drawText(`Enclosed: ${doc.cover}`, { x: 72, y: 690, size: 12, font });
        cover.drawText('Pages to follow. Please call the processor with any questions.', {
          x: 72,
          y: 660,
          size: 10,
          font,
        });
        pages.push({ page: pages.length + 1, source });
      }
      for (const page of await out.copyPages(doc.pdf, doc.pdf.getPageIndices())) {
        out.addPage(page);
        pages.push({ page: pages.length + 1, source });
      }
    }
    bundles.push({ name: `bundle ${seed}.${b + 1}`, bytes: await out.save(), pages });
  }
  return bundles;
}

/** Pages whose document holds exactly the pages of their own: a page is split right, or it is not. */
export function pagesSplitRight(
  expected: readonly { page: number; source: string }[],
  documentOf: ReadonlyMap<number, number>,
): number {
  return expected.filter((l) => {
    const mine = expected.filter((o) => o.source === l.source).map((o) => o.page);
    const together = expected.filter((o) => documentOf.get(o.page) === documentOf.get(l.page)).map((o) => o.page);
    return JSON.stringify(mine) === JSON.stringify(together);
  }).length;
}
