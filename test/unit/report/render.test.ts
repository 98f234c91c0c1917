// The report PDF as a QC reviewer reads it: page 1 (the loan at a glance, the outcome, counts by
// severity, the documents reviewed, what changed, how to answer), the findings table, a section per
// finding, footers, and one fillable form that starts with the decisions already taken; and the same as a
// screen reader reads it, through the tagged structure (headings, tables, form fields, figures).
import test from 'ava';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  rgb,
  StandardFonts,
  type PDFObject,
} from 'pdf-lib';
import type { Finding } from '../../../src/qc/finding.js';
import { openPdf } from '../../../src/qc/reading/pdfjs.js';
import { MARGIN, PageWriter, WIDTH } from '../../../src/report/layout.js';
import { pictureKey } from '../../../src/report/evidence-pictures.js';
import { renderReport, type ReportContent } from '../../../src/report/render.js';
import type { Particulars } from '../../../src/report/particulars.js';
import { releaseContent } from '../../../src/reviews/report.js';
import { inspectWorkingDocument, readWorkingDocumentFields } from '../../../src/working-document/marker.js';
import { pagesText } from '../../support/pdf-text.js';

const secret = 'a-server-secret-of-at-least-32-characters';

const finding = (key: string, o: Partial<Finding> = {}): Finding => ({
  key,
  code: key.split(':')[0]!,
  severity: 'high',
  category: 'documentation',
  title: `Title of ${key}`,
  summary: `Summary of ${key}.`,
  evidence: [],
  regulation: null,
  ...o,
});

const apr = finding('APR-001', {
  severity: 'critical',
  category: 'compliance',
  title: 'APR outside tolerance',
  summary:
    'The APR disclosed on the Closing Disclosure (cd.pdf, p.5), 4.174%, differs from the Loan Estimate (le.pdf, p.3), 3.990%.',
  evidence: [
    { document: 'cd.pdf', page: 5, field: 'apr', value: '4.174%' },
    { document: 'le.pdf', page: 3, field: 'apr', value: '3.990%' },
  ],
  regulation: '12 CFR 1026.22(a)(2)',
});
const urla = finding('DOC-001:urla', {
  severity: 'critical',
  title: 'Core document missing',
  summary: 'No loan application (URLA) was found.',
});
const bank = finding('DOC-004', {
  severity: 'medium',
  title: 'Bank statements incomplete',
  evidence: [{ document: 'bank.pdf', page: 2, field: 'statement_period', value: null }],
});

const particulars: Particulars = {
  glance: [
    { label: 'Borrower', value: 'Michael Jones and Mary Stone', document: 'cd.pdf', page: 1 },
    { label: 'Loan amount', value: '$162,000.00', document: 'cd.pdf', page: 1 },
    { label: 'Interest rate', value: '3.875%', document: 'note.pdf', page: 1 },
    { label: 'Closing date', value: '15 April 2013', document: 'cd.pdf', page: 1 },
  ],
  documents: [
    { file: 'cd.pdf', found: ['Closing Disclosure'], pages: 5, unreadable: null },
    { file: 'package.pdf', found: ['Note', 'Pay stub'], pages: 7, unreadable: null },
    { file: 'photo.jpg', found: [], pages: 0, unreadable: 'the image could not be decoded' },
  ],
};

function content(o: Partial<ReportContent> = {}): ReportContent {
  const findings = o.findings ?? [apr, urla, bank];
  return {
    reviewId: randomUUID(),
    releaseId: randomUUID(),
    referenceId: 'LN-2026-000123',
    sandbox: false,
    ...releaseContent(findings),
    generatedAt: new Date('2026-11-23T08:00:41.318Z'),
    sheet: { number: 1, particulars, previous: null, decisions: [], standing: [] },
    ...o,
  };
}

test('page 1: the loan at a glance with sources, the outcome in words, counts by severity, the documents reviewed, the release in words', async (t) => {
  const [first] = await pagesText(await renderReport(content(), secret));
  t.regex(first!, /Loan package quality-control report/);
  t.regex(first!, /Release 1, 23 November 2026, 08:00 UTC\n/);
  t.notRegex(first!, /amends/);
  t.regex(first!, /Issues found: 3 findings to review, 2 critical or high findings among them\./);
  t.regex(first!, /2 critical 0 high 1 medium 0 low 0 info/);
  t.regex(first!, /Borrower Michael Jones and Mary Stone cd\.pdf, p\.1/);
  t.regex(first!, /Loan amount \$162,000\.00 cd\.pdf, p\.1/);
  t.regex(first!, /Interest rate 3\.875% note\.pdf, p\.1/);
  // A fact no document printed is said to be missing, not left out.
  t.regex(first!, /Property not found in the package/);
  t.regex(first!, /Lender not found in the package/);
  t.regex(first!, /package\.pdf Note, Pay stub 7/);
  t.regex(first!, /photo\.jpg - - Unreadable: the image\s+could not be decoded/);
  t.regex(first!, /How to answer/);
  // For people: no API paths, no ISO timestamps.
  for (const page of await pagesText(await renderReport(content(), secret))) {
    t.notRegex(page, /\/reviews|\/v1|POST /);
    t.notRegex(page, /\d{4}-\d{2}-\d{2}T/);
  }
});

test('a clear review says so; a release from before particulars were recorded says they were not', async (t) => {
  const [first] = await pagesText(
    await renderReport(
      content({ findings: [], sheet: { number: 1, particulars: null, previous: null, decisions: [], standing: [] } }),
      secret,
    ),
  );
  t.regex(first!, /Clear: the review found no issues in this package\./);
  t.regex(first!, /0 critical 0 high 0 medium 0 low 0 info/);
  t.regex(first!, /The loan at a glance\nNot recorded for this release\./);
  t.regex(first!, /No issues were found\./);
});

test('the findings table, then one section per finding with its summary, regulation and evidence', async (t) => {
  const pages = await pagesText(await renderReport(content(), secret));
  const rest = pages.slice(1).join('\n');
  t.regex(
    rest,
    /Findings\nFinding Severity Title Document, page\nAPR-001 Critical APR outside tolerance cd\.pdf, p\.5\nDOC-001:urla Critical Core document missing -\nDOC-004 Medium Bank statements incomplete bank\.pdf, p\.2/,
  );
  t.regex(
    rest,
    /APR-001 APR outside tolerance\nCritical severity, compliance\nThe APR disclosed on the Closing Disclosure \(cd\.pdf, p\.5\), 4\.174%/,
  );
  t.regex(rest, /Regulation: 12 CFR 1026\.22\(a\)\(2\)/);
  t.regex(rest, /Evidence\nAPR: 4\.174% \(cd\.pdf, p\.5\)\nAPR: 3\.990% \(le\.pdf, p\.3\)/);
  t.regex(rest, /Statement period: blank or not printed \(bank\.pdf, p\.2\)/);
  t.regex(
    rest,
    /DOC-001:urla Core document missing\nCritical severity, documentation\nNo loan application \(URLA\) was found\./,
  );
});

test('every page has a footer: the review, the release and page x of y', async (t) => {
  const c = content({ findings: Array.from({ length: 30 }, (_, i) => finding(`DOC-0${10 + (i % 80)}:${i}`)) });
  const pages = await pagesText(await renderReport(c, secret));
  t.true(pages.length > 3);
  pages.forEach((text, i) => {
    t.regex(text, new RegExp(`Review ${c.reviewId} · release 1, 23 November 2026, 08:00 UTC`));
    t.regex(text, new RegExp(`Page ${i + 1} of ${pages.length}`));
  });
});

test('an amendment says what it amends and what changed: cleared, disputed with the comment, cured, resolved, new', async (t) => {
  const cleared = finding('DOC-002', { title: 'Appraisal missing' });
  const cured = finding('TOL-001', { title: 'Tolerance exceeded' });
  const gone = finding('NTE-001', { title: 'Note rate differs' });
  const fresh = finding('TRD-002', { severity: 'critical', title: 'Closing Disclosure waiting period' });
  const c = content({
    findings: [apr, urla, fresh],
    sheet: {
      number: 2,
      particulars,
      previous: {
        number: 1,
        generatedAt: new Date('2026-11-20T14:05:00Z'),
        findings: [apr, urla, cleared, cured, gone],
      },
      decisions: [
        { findingId: 'DOC-002', decision: 'cleared', comment: 'Appraisal waived (PIW).' },
        { findingId: 'DOC-001:urla', decision: 'disputed', comment: 'The URLA is in the lender file' },
        { findingId: 'TOL-001', decision: 'cure_attached', comment: null },
      ],
      standing: [{ findingId: 'DOC-001:urla', decision: 'disputed', comment: 'The URLA is in the lender file' }],
    },
  });
  const [first] = await pagesText(await renderReport(c, secret));
  t.regex(first!, /Release 2, 23 November 2026, 08:00 UTC — amends release 1 of 20 November 2026, 14:05 UTC/);
  t.regex(first!, /Changes since release 1/);
  t.regex(first!, /Disputed DOC-001:urla Core document missing "The URLA is in the lender file"/);
  t.regex(first!, /Cleared DOC-002 Appraisal missing "Appraisal waived \(PIW\)\."/);
  t.regex(first!, /Cured TOL-001 Tolerance exceeded the cure document resolved it/);
  t.regex(first!, /Resolved NTE-001 Note rate differs no longer found in the documents/);
  t.regex(first!, /New TRD-002 Closing Disclosure waiting period Critical/);
  t.notRegex(first!, /APR-001/, 'unchanged findings are not listed');
});

test('one fillable form: three fields per finding, earlier decisions pre-filled, the service marker intact', async (t) => {
  const c = content({
    sheet: {
      number: 2,
      particulars,
      previous: { number: 1, generatedAt: new Date('2026-11-20T14:05:00Z'), findings: [apr, urla, bank] },
      decisions: [],
      standing: [{ findingId: 'DOC-001:urla', decision: 'disputed', comment: 'The URLA is in the lender file' }],
    },
  });
  const bytes = await renderReport(c, secret);
  t.deepEqual(await inspectWorkingDocument(bytes, secret), {
    reviewId: c.reviewId,
    releaseId: c.releaseId,
    fieldCount: 9,
  });
  const fields = await readWorkingDocumentFields(bytes);
  t.is(fields.get('finding.DOC-001:urla.decision'), 'disputed');
  t.is(fields.get('finding.DOC-001:urla.comment'), 'The URLA is in the lender file');
  t.is(fields.get('finding.APR-001.decision') ?? '', '');
  t.true(fields.has('finding.DOC-004.cure_document'));
  t.regex((await pagesText(bytes)).join('\n'), /Decided earlier: disputed\. Leave it to keep it, or change it\./);
});

test('the document title is set and shown by viewers, in English', async (t) => {
  const doc = await PDFDocument.load(await renderReport(content(), secret));
  t.is(doc.getTitle(), 'Loan package review LN-2026-000123, release 1');
  const prefs = doc.catalog.lookup(PDFName.of('ViewerPreferences'), PDFDict);
  t.is(String(prefs.get(PDFName.of('DisplayDocTitle'))), 'true');
  t.is(String(doc.catalog.get(PDFName.of('Lang'))), '(en-US)');
  t.is(doc.getCreationDate()?.toISOString(), '2026-11-23T08:00:41.000Z');
});

test('the text is set in embedded fonts, so names beyond Latin-1 print as written; the form keeps a font viewers type in', async (t) => {
  const names: Particulars = {
    ...particulars,
    glance: [{ label: 'Borrower', value: 'Zoë Łukasiewicz and Đặng Thị Hoa', document: 'cd.pdf', page: 1 }],
  };
  const bytes = await renderReport(
    content({ sheet: { number: 1, particulars: names, previous: null, decisions: [], standing: [] } }),
    secret,
  );
  t.regex((await pagesText(bytes))[0]!, /Borrower Zoë Łukasiewicz and Đặng Thị Hoa cd\.pdf, p\.1/);
  const doc = await PDFDocument.load(bytes);
  const fonts = doc.context
    .enumerateIndirectObjects()
    .map(([, o]) => o)
    .filter((o): o is PDFDict => o instanceof PDFDict && o.get(PDFName.of('Type')) === PDFName.of('FontDescriptor'));
  // Every font the pages use carries its program (FontFile2): a subset of DejaVu Sans, regular and bold
  // (pdf-lib numbers a subset's name).
  t.deepEqual(
    fonts
      .map((f) =>
        String(f.get(PDFName.of('FontName')))
          .replace(/^\/[A-Z]{6}\+/, '/')
          .replace(/-\d+$/, ''),
      )
      .sort(),
    ['/DejaVuSans', '/DejaVuSans-Bold'],
  );
  t.true(fonts.every((f) => f.get(PDFName.of('FontFile2')) !== undefined));
  t.is(
    String(doc.getForm().getTextField(`finding.${apr.key}.comment`).acroField.getDefaultAppearance()).includes('Helv'),
    true,
  );
});

test('reports rendered one after another each embed a subset of their own: the same text, the same font programs, whatever was rendered between', async (t) => {
  const report = (borrower: string) =>
    renderReport(
      content({
        sheet: {
          number: 1,
          particulars: {
            ...particulars,
            glance: [{ label: 'Borrower', value: borrower, document: 'cd.pdf', page: 1 }],
          },
          previous: null,
          decisions: [],
          standing: [],
        },
      }),
      secret,
    );
  // The size of each embedded font program: a subset holds the glyphs of the document's text.
  const programSizes = async (bytes: Uint8Array) => {
    const doc = await PDFDocument.load(bytes);
    return doc.context
      .enumerateIndirectObjects()
      .map(([, o]) => o)
      .filter((o): o is PDFDict => o instanceof PDFDict && o.get(PDFName.of('Type')) === PDFName.of('FontDescriptor'))
      .map((f) => (f.lookup(PDFName.of('FontFile2')) as PDFRawStream).getContentsSize())
      .sort((a, b) => a - b);
  };
  const first = await report('Ωμέγα Ψυχή');
  const second = await report('Đặng Thị Hoa');
  const again = await report('Ωμέγα Ψυχή');
  t.regex((await pagesText(first))[0]!, /Borrower Ωμέγα Ψυχή cd\.pdf/);
  t.regex((await pagesText(second))[0]!, /Borrower Đặng Thị Hoa cd\.pdf/);
  t.regex((await pagesText(again))[0]!, /Borrower Ωμέγα Ψυχή cd\.pdf/);
  // The same text gives the same subset, whatever was rendered between.
  t.deepEqual(await programSizes(again), await programSizes(first));
  t.notDeepEqual(await programSizes(second), await programSizes(first));
});

// The tagged structure as pdf.js reads it (what a screen reader gets): each page's structure tree, the text
// of each tagged marked-content sequence by its id, and the text drawn as artifacts or outside any tag.
interface StructNode {
  role: string;
  children: (StructNode | { type: string; id: string })[];
  alt?: string;
  bbox?: number[];
}
interface TaggedPage {
  tree: StructNode;
  text: Map<string, string>;
  artifacts: string[];
  untagged: string[];
  /** The form field widgets on the page: their names and ids. */
  widgets: { fieldName: string; id: string }[];
}
type MarkedItem = { type?: string; id?: string | null; tag?: string | null; str?: string };

async function taggedPages(bytes: Uint8Array): Promise<TaggedPage[]> {
  const pdf = await openPdf(bytes);
  try {
    const pages: TaggedPage[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const tree = (await page.getStructTree()) as StructNode;
      const { items } = await page.getTextContent({ includeMarkedContent: true });
      const text = new Map<string, string>();
      const artifacts: string[] = [];
      const untagged: string[] = [];
      const open: { id: string | null; tag: string | null }[] = [];
      for (const item of items as MarkedItem[]) {
        if (item.type === 'beginMarkedContent' || item.type === 'beginMarkedContentProps')
          open.push({ id: item.id ?? null, tag: item.tag ?? null });
        else if (item.type === 'endMarkedContent') open.pop();
        else if (item.str?.trim()) {
          const tagged = [...open].reverse().find((m) => m.id !== null);
          if (open.some((m) => m.tag === 'Artifact')) artifacts.push(item.str);
          else if (tagged?.id) text.set(tagged.id, `${text.get(tagged.id) ?? ''}${item.str}`);
          else untagged.push(item.str);
        }
      }
      const widgets = ((await page.getAnnotations()) as { fieldName?: string; id: string }[]).flatMap((a) =>
        a.fieldName ? [{ fieldName: a.fieldName, id: a.id }] : [],
      );
      pages.push({ tree, text, artifacts, untagged, widgets });
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

const isNode = (c: StructNode['children'][number]): c is StructNode => 'role' in c;
/** Every element with the role under `node`, in reading order. */
function all(node: StructNode, role: string): StructNode[] {
  return node.children.filter(isNode).flatMap((c) => [...(c.role === role ? [c] : []), ...all(c, role)]);
}
/** The text an element holds on its page, its spaces collapsed. */
function textOf(node: StructNode, page: TaggedPage): string {
  return node.children
    .map((c) => (isNode(c) ? textOf(c, page) : (page.text.get(c.id) ?? '')))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
function contentIds(node: StructNode): string[] {
  return node.children.flatMap((c) => (isNode(c) ? contentIds(c) : [c.id]));
}

test('the PDF is tagged: page 1 reads as the title (H1), its sections headed (H2), tables of header (TH) and data (TD) cells', async (t) => {
  const c = content({
    sheet: {
      number: 2,
      particulars,
      previous: { number: 1, generatedAt: new Date('2026-11-20T14:05:00Z'), findings: [apr] },
      decisions: [],
      standing: [],
    },
  });
  const bytes = await renderReport(c, secret);
  const doc = await PDFDocument.load(bytes);
  t.is(String(doc.catalog.lookup(PDFName.of('MarkInfo'), PDFDict).get(PDFName.of('Marked'))), 'true');
  t.is(String(doc.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict).get(PDFName.of('Type'))), '/StructTreeRoot');

  const [first] = await taggedPages(bytes);
  const [documentElement] = first!.tree.children.filter(isNode);
  t.is(documentElement?.role, 'Document');
  t.deepEqual(
    all(first!.tree, 'H1').map((h) => textOf(h, first!)),
    ['Loan package quality-control report'],
  );
  t.deepEqual(
    all(first!.tree, 'H2').map((h) => textOf(h, first!)),
    ['The loan at a glance', 'Documents reviewed', 'Changes since release 1', 'How to answer'],
  );
  // Each section is a Sect: its heading, then its table.
  const glance = all(first!.tree, 'Sect')[0]!;
  t.deepEqual(
    glance.children.filter(isNode).map((e) => e.role),
    ['H2', 'Table'],
  );
  const [header, borrower] = all(glance, 'TR');
  t.deepEqual(
    header!.children.filter(isNode).map((cell) => [cell.role, textOf(cell, first!)]),
    [
      ['TH', ''],
      ['TH', 'As read'],
      ['TH', 'Source'],
    ],
  );
  t.deepEqual(
    borrower!.children.filter(isNode).map((cell) => [cell.role, textOf(cell, first!)]),
    [
      ['TD', 'Borrower'],
      ['TD', 'Michael Jones and Mary Stone'],
      ['TD', 'cd.pdf, p.1'],
    ],
  );
  t.true(
    all(first!.tree, 'P').some(
      (p) => textOf(p, first!) === 'Issues found: 3 findings to review, 2 critical or high findings among them.',
    ),
  );
});

test('each finding is a section headed (H3) by its key and title, after the findings table', async (t) => {
  const pages = (await taggedPages(await renderReport(content(), secret))).slice(1);
  const [findingsPage] = pages;
  t.deepEqual(
    all(findingsPage!.tree, 'H2').map((h) => textOf(h, findingsPage!)),
    ['Findings'],
  );
  t.deepEqual(
    all(all(findingsPage!.tree, 'TR')[0]!, 'TH').map((th) => textOf(th, findingsPage!)),
    ['Finding', 'Severity', 'Title', 'Document, page'],
  );
  // The findings' sections are within the Findings section: each begins with its heading.
  const headed = (page: TaggedPage) =>
    all(page.tree, 'Sect').filter((sect) => sect.children.filter(isNode)[0]?.role === 'H3');
  const sections = pages.flatMap((page) => headed(page).map((sect) => textOf(sect.children.filter(isNode)[0]!, page)));
  t.deepEqual(sections, [
    'APR-001 APR outside tolerance',
    'DOC-001:urla Core document missing',
    'DOC-004 Bank statements incomplete',
  ]);
  const apr = headed(findingsPage!)[0]!;
  t.true(all(apr, 'P').some((p) => textOf(p, findingsPage!) === 'Regulation: 12 CFR 1026.22(a)(2)'));
});

test('no text is left untagged: every text on every page is content the structure tree holds, or an artifact (footers, a table header repeated on its next page)', async (t) => {
  const documents = Array.from({ length: 60 }, (_, i) => ({
    file: `document-${i}.pdf`,
    found: ['Note'],
    pages: 3,
    unreadable: null,
  }));
  const c = content({
    findings: Array.from({ length: 30 }, (_, i) =>
      finding(`DOC-0${10 + i}`, { summary: 'A summary long enough to wrap over several lines. '.repeat(12) }),
    ),
    sheet: { number: 1, particulars: { ...particulars, documents }, previous: null, decisions: [], standing: [] },
  });
  const pages = await taggedPages(await renderReport(c, secret));
  t.true(pages.length > 5);
  pages.forEach((page, i) => {
    t.deepEqual(page.untagged, [], `page ${i + 1}`);
    const held = new Set(contentIds(page.tree));
    t.deepEqual(
      [...page.text.keys()].filter((id) => !held.has(id)),
      [],
      `page ${i + 1}: tagged content the tree does not hold`,
    );
    t.true(page.artifacts.includes(`Page ${i + 1} of ${pages.length}`));
  });
  // The documents table goes on to page 2 under its header again, which is read once, on page 1.
  const second = pages[1]!;
  t.true(second.artifacts.join(' ').includes('File Found Pages Note'));
  t.deepEqual(
    all(second.tree, 'TH')
      .map((th) => textOf(th, second))
      .filter(Boolean),
    [],
    'no header cell is read on page 2',
  );
  t.true(all(second.tree, 'TD').some((td) => /^document-\d+\.pdf$/.test(textOf(td, second))));
});

test('the form fields are in the structure: each widget is the content of a Form element, which its StructParent names; fields are described and pages tab in structure order', async (t) => {
  const bytes = await renderReport(content(), secret);
  // As pdf.js reads it: every widget on a page sits in a Form element of that page's tree.
  for (const page of await taggedPages(bytes)) {
    const inForms = new Set(
      all(page.tree, 'Form').flatMap((form) =>
        form.children.flatMap((c) => (isNode(c) ? [] : [c.id.replace(/^pdfjs_internal_id_/, '')])),
      ),
    );
    for (const widget of page.widgets) t.true(inForms.has(widget.id), widget.fieldName);
  }
  // As written: the parent tree maps a widget's StructParent to its Form element itself, which refers back
  // to the widget.
  const doc = await PDFDocument.load(bytes);
  const nums = doc.catalog
    .lookup(PDFName.of('StructTreeRoot'), PDFDict)
    .lookup(PDFName.of('ParentTree'), PDFDict)
    .lookup(PDFName.of('Nums'), PDFArray);
  const parents = new Map<number, PDFObject>();
  for (let i = 0; i < nums.size(); i += 2) parents.set(nums.lookup(i, PDFNumber).asNumber(), nums.get(i + 1));
  const fields = doc.getForm().getFields();
  t.is(fields.length, 9);
  for (const field of fields) {
    for (const ref of field.acroField.dict.lookup(PDFName.of('Kids'), PDFArray).asArray()) {
      const widget = doc.context.lookup(ref, PDFDict);
      const form = doc.context.lookup(
        parents.get(widget.lookup(PDFName.of('StructParent'), PDFNumber).asNumber()),
        PDFDict,
      );
      t.is(String(form.get(PDFName.of('S'))), '/Form', field.getName());
      t.is(form.lookup(PDFName.of('K'), PDFDict).get(PDFName.of('Obj')), ref);
    }
  }
  t.is(
    doc
      .getForm()
      .getTextField('finding.APR-001.comment')
      .acroField.dict.lookup(PDFName.of('TU'), PDFHexString)
      .decodeText(),
    'Comment on APR-001',
  );
  t.true(doc.getPages().every((page) => page.node.get(PDFName.of('Tabs')) === PDFName.of('S')));
});

// A 1×1 PNG, for a picture to place.
/** The content streams of page `index` (0-based), decoded: the operators it draws with. */
function operatorsOf(doc: PDFDocument, index: number): string {
  const page = doc.getPages()[index]!;
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray() : [page.node.get(PDFName.of('Contents'))];
  return streams
    .map((ref) => doc.context.lookup(ref))
    .map((stream) =>
      stream instanceof PDFRawStream ? new TextDecoder().decode(decodePDFRawStream(stream).decode()) : '',
    )
    .join('\n');
}

const dot = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('figure(): a picture and its frame are one Figure with its alternate text and box, on a new page when the space left is too short, the cursor below it', async (t) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const w = new PageWriter(doc, { regular: font, bold: font });
  const image = await doc.embedPng(dot);
  w.text('Before the picture.');
  w.y = MARGIN + 100; // near the foot of page 1
  let drawnAt: number | undefined;
  w.figure('The Closing Disclosure, page 5: the APR, 4.174%', 200, (page, top) => {
    drawnAt = top;
    page.drawImage(image, { x: MARGIN, y: top - 200, width: 300, height: 200 });
    page.drawRectangle({
      x: MARGIN,
      y: top - 200,
      width: 300,
      height: 200,
      borderColor: rgb(1, 0, 0),
      borderWidth: 1,
    });
  });
  t.is(w.pages.length, 2, 'it did not fit above the footer of page 1');
  t.is(w.y, drawnAt! - 200);
  w.text('After the picture.');
  w.footers('footer');
  w.finish();
  const bytes = await doc.save();

  const second = (await taggedPages(bytes))[1]!;
  const [figure] = all(second.tree, 'Figure');
  t.is(figure?.alt, 'The Closing Disclosure, page 5: the APR, 4.174%');
  t.deepEqual(figure?.bbox, [MARGIN, drawnAt! - 200, MARGIN + WIDTH, drawnAt!]);
  t.deepEqual(
    all(second.tree, 'P').map((p) => textOf(p, second)),
    ['After the picture.'],
  );
  // The image (Do) and the frame (a path, stroked: S) are drawn inside the Figure's marked content, nothing
  // else tagged within.
  const loaded = await PDFDocument.load(bytes);
  const operators = operatorsOf(loaded, 1);
  const inFigure = /\/Figure <<\/MCID 0>> BDC\n([\s\S]*?)\nEMC/.exec(operators)?.[1] ?? '';
  t.regex(inFigure, /\/Image-\d+ Do\nQ\n[\s\S]*\nS\nQ$/);
  t.notRegex(inFigure, /BDC|BMC/);
});

test('a drawing callback cannot write through the page writer, which would tag its drawing wrongly', async (t) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const w = new PageWriter(doc, { regular: font, bold: font });
  t.throws(() => w.figure('A picture', 10, () => w.text('a caption')), { message: /not through the page writer/ });
  t.throws(() => w.decoration(() => w.rule()), { message: /not through the page writer/ });
});

test('a paragraph that goes on to the next page is one element, with content on both pages', async (t) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const w = new PageWriter(doc, { regular: font, bold: font });
  w.y = MARGIN + 60;
  w.text('A long paragraph. '.repeat(60));
  w.finish();
  const bytes = await doc.save();
  const [first, second] = await taggedPages(bytes);
  t.is(all(first!.tree, 'P').length, 1);
  t.is(all(second!.tree, 'P').length, 1);
  t.regex(textOf(all(first!.tree, 'P')[0]!, first!), /^A long paragraph\./);
  t.regex(textOf(all(second!.tree, 'P')[0]!, second!), /A long paragraph\.$/);
  const loaded = await PDFDocument.load(bytes);
  const paragraphs = loaded.context
    .enumerateIndirectObjects()
    .map(([, o]) => o)
    .filter((o): o is PDFDict => o instanceof PDFDict && o.get(PDFName.of('S')) === PDFName.of('P'));
  t.is(paragraphs.length, 1);
  t.true(
    paragraphs[0]!
      .lookup(PDFName.of('K'), PDFArray)
      .asArray()
      .some((k) => k instanceof PDFDict && k.get(PDFName.of('Type')) === PDFName.of('MCR')),
  );
});

test('evidence that was located is shown as a picture of where it was printed, the value boxed in red; evidence without a place is listed in words only', async (t) => {
  const located = { ...apr.evidence[0]!, box: { x0: 300, y0: 400, x1: 340, y1: 410, source: 'text_layer' as const } };
  const withPicture = { ...apr, evidence: [located, apr.evidence[1]!] };
  // A 600 × 136 picture at 2 pixels per point: shown 300 pt wide, the value's box in its middle.
  const png = await sharp({ create: { width: 600, height: 136, channels: 3, background: '#ffffff' } })
    .png({ palette: true })
    .toBuffer();
  const picture = {
    png: new Uint8Array(png),
    width: 600,
    height: 136,
    scale: 2,
    mark: { left: 0.4, top: 0.35, right: 0.6, bottom: 0.65 },
  };
  const bytes = await renderReport(
    content({ findings: [withPicture, urla, bank], pictures: new Map([[pictureKey(located)!, picture]]) }),
    secret,
  );

  const pages = await taggedPages(bytes);
  const figures = pages.flatMap((page) => all(page.tree, 'Figure'));
  t.deepEqual(
    figures.map((f) => f.alt),
    ['APR as printed in cd.pdf, page 5: 4.174%, boxed in red.'],
  );
  // The picture is drawn on the APR's page at its printed size, with a red frame round the value.
  const loaded = await PDFDocument.load(bytes);
  const index = pages.findIndex((page) => all(page.tree, 'Figure').length > 0);
  const page = loaded.getPages()[index]!;
  const images = page.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
  const [image] = images.values().map((ref) => loaded.context.lookup(ref));
  t.true(image instanceof PDFRawStream);
  t.is(String((image as PDFRawStream).dict.get(PDFName.of('Width'))), '600');
  t.is(String((image as PDFRawStream).dict.get(PDFName.of('Height'))), '136');
  // The picture's PNG pixels as they were compressed: a palette image, inflated and unfiltered by the reader.
  t.regex(String((image as PDFRawStream).dict.get(PDFName.of('ColorSpace'))), /^\[ \/Indexed \/DeviceRGB /);
  const operators = operatorsOf(loaded, index);
  const figure = /\/Figure <<\/MCID \d+>> BDC\n([\s\S]*?)\nEMC/.exec(operators)?.[1] ?? '';
  const placedAt = /\n300 0 0 68 ([\d.]+) ([\d.]+) cm\n\/Image-\d+ Do\n/.exec(figure);
  t.truthy(placedAt, 'drawn 300 × 68 pt: the picture at its printed size');
  // The red box: 40% across and 35% down the picture, 60 × 20.4 pt.
  const mark = /0\.86 0\.1 0\.1 RG\n1\.5 w\n\[\] 0 d\n1 0 0 1 ([\d.]+) ([\d.]+) cm\n/.exec(figure);
  t.truthy(mark, 'the value boxed in red');
  t.is(Math.round((Number(mark![1]) - Number(placedAt![1])) * 10) / 10, 120);
  t.is(Math.round((Number(mark![2]) - Number(placedAt![2])) * 10) / 10, 23.8);
  t.regex(figure, /\n59\.99\d* 20\.4\d* l\n/);
  // Every evidence line is still written out, the one without a picture too.
  const text = (await pagesText(bytes)).join('\n');
  t.regex(text, /APR: 4\.174% \(cd\.pdf, p\.5\)/);
  t.regex(text, /APR: 3\.990% \(le\.pdf, p\.3\)/);
});
