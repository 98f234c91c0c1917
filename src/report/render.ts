// Renders a release's report PDF, which is also the working document (decisions.md, "Working document"). Page
// 1 is the loan
// at a glance, the outcome, counts by severity, the documents reviewed, what changed since the previous
// release and how to answer; then a findings table; then one section per finding (summary, regulation,
// evidence) with its form fields: a decision (cleared, disputed, cure_attached or empty; pre-filled
// with the decision standing on it), a comment and a cure document (the file name of the curing
// document uploaded with it). The service marker of the review and release makes it a working document.
// It is a tagged PDF (tags.ts): the title, section and finding headings, tables and form fields are read
// in order by a screen reader, which skips the decoration: the chips' and the box's backgrounds, the bar
// before each finding, the rules and the footers.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  StandardFonts,
  type PDFFont,
  type PDFForm,
  type RGB,
} from 'pdf-lib';
import type { Summary } from '../reviews/report.js';
import type { Evidence, Finding } from '../qc/finding.js';
import { SEVERITIES, type Severity } from '../qc/catalog.js';
import { DISPOSITION_DECISIONS } from '../reviews/add-documents.js';
import { stampWorkingDocument } from '../working-document/marker.js';
import type { Decision } from '../working-document/decisions.js';
import { pictureKey, type EvidencePicture } from './evidence-pictures.js';
import { placePng, type PlacedImage } from './png-image.js';
import { GLANCE_LABELS, type Particulars } from './particulars.js';
import { INK, MARGIN, MUTED, PageWriter, RULE, WIDTH } from './layout.js';
import { formatInstant, forPeople } from './wording.js';

/** A decision that stands on a finding, as the form pre-fills it and an amendment lists it. */
export interface DecisionOnFinding {
  findingId: string;
  decision: Decision;
  comment: string | null;
}

/** What the report shows beyond the findings (src/db/releases.ts reportSheet reads it). */
export interface ReportSheetContent {
  /** 1 for the first release, 2 for the first amendment… */
  number: number;
  particulars: Particulars | null;
  previous: { number: number; generatedAt: Date; findings: readonly Finding[] } | null;
  /** Decisions applied from the previous release's working document. */
  decisions: readonly DecisionOnFinding[];
  /** Decisions standing on findings of this release: the form starts with them. */
  standing: readonly DecisionOnFinding[];
}

export interface ReportContent {
  reviewId: string;
  releaseId: string;
  referenceId: string | null;
  sandbox: boolean;
  outcome: string;
  summary: Summary;
  findings: readonly Finding[];
  /** The release's time: the same in the Report JSON and the webhook. */
  generatedAt: Date;
  /** Absent: a first release with nothing known beyond its findings. */
  sheet?: ReportSheetContent;
  /** Pictures of the evidence by pictureKey (evidence-pictures.ts); evidence without one is listed in words only. */
  pictures?: ReadonlyMap<string, EvidencePicture>;
}

/**
 * The form fields of one finding, named by its key (unique within a release, unlike its code); the reader
 * of a returned working document uses the same names.
 */
export function findingFieldNames(key: string) {
  return {
    decision: `finding.${key}.decision`,
    comment: `finding.${key}.comment`,
    cureDocument: `finding.${key}.cure_document`,
  };
}

let faces: Promise<{ regular: Uint8Array; bold: Uint8Array }> | undefined;
/** DejaVu Sans and its bold (dejavu-fonts-ttf; Bitstream Vera licence, see its LICENSE), read once. */
function dejaVu(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  const require = createRequire(import.meta.url);
  faces ??= Promise.all([
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  ]).then(([regular, bold]) => ({ regular, bold }));
  return faces;
}

export const SEVERITY_COLORS: Record<Severity, RGB> = {
  critical: rgb(0.72, 0.11, 0.11),
  high: rgb(0.85, 0.38, 0.05),
  medium: rgb(0.72, 0.55, 0.02),
  low: rgb(0.15, 0.39, 0.68),
  info: rgb(0.42, 0.45, 0.5),
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The outcome in words. */
function outcomeInWords(outcome: string, s: Summary): string {
  if (outcome === 'clear' || s.total === 0) return 'Clear: the review found no issues in this package.';
  const urgent = s.critical + s.high;
  const needs = urgent > 0 ? `, ${plural(urgent, 'critical or high finding')} among them` : '';
  return `Issues found: ${plural(s.total, 'finding')} to review${needs}.`;
}

/** Where a finding points: the first document and page its evidence names. */
function whereOf(f: Finding): string {
  const first = f.evidence[0];
  return first ? `${first.document}, p.${first.page}` : '-';
}

/** "loan_amount" → "Loan amount"; "apr" → "APR". */
function fieldName(field: string): string {
  const known: Record<string, string> = { apr: 'APR', tip: 'TIP', cd: 'CD', le: 'LE' };
  return capital(
    field
      .split('_')
      .map((w) => known[w] ?? w)
      .join(' '),
  );
}

/** What changed since the previous release, in words, one line each (none for a first release). */
function changesSince(
  content: Pick<ReportContent, 'findings' | 'sheet'>,
): { kind: string; finding: string; note: string }[] {
  const sheet = content.sheet;
  if (!sheet?.previous) return [];
  const before = new Map(sheet.previous.findings.map((f) => [f.key, f]));
  const now = new Map(content.findings.map((f) => [f.key, f]));
  const decided = new Map(sheet.decisions.map((d) => [d.findingId, d]));
  const out: { kind: string; finding: string; note: string }[] = [];
  const label = (f: Finding) => `${f.key} ${f.title}`;
  for (const [key, f] of before) {
    const d = decided.get(key);
    if (now.has(key)) {
      if (d?.decision === 'disputed')
        out.push({ kind: 'Disputed', finding: label(f), note: d.comment ? `"${d.comment}"` : 'no comment' });
      continue;
    }
    if (d?.decision === 'cleared')
      out.push({ kind: 'Cleared', finding: label(f), note: d.comment ? `"${d.comment}"` : 'by the lender' });
    else if (d?.decision === 'cure_attached')
      out.push({ kind: 'Cured', finding: label(f), note: 'the cure document resolved it' });
    else out.push({ kind: 'Resolved', finding: label(f), note: 'no longer found in the documents' });
  }
  for (const [key, f] of now)
    if (!before.has(key)) out.push({ kind: 'New', finding: label(f), note: `${capital(f.severity)}` });
  return out;
}

/**
 * fontkit, remembering each font it parsed: pdf-lib parses the font file again for every document it
 * embeds it in, and the glyphs' outlines and metrics with it: some 40% of rendering a report of a few
 * findings. A parsed font is read-only but for the glyphs it caches; each document takes a subset of its
 * own (createSubset), holding only the glyphs its text uses.
 */
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
const parsedFonts: Fontkit = {
  create(bytes, postscriptName) {
    // A font collection's member, named: not ours to remember (the report's faces are single fonts).
    if (postscriptName !== undefined) return fontkit.create(bytes, postscriptName);
    let font = parsed.get(bytes);
    if (!font) parsed.set(bytes, (font = fontkit.create(bytes)));
    return font;
  },
};
const parsed = new WeakMap<Uint8Array, ReturnType<Fontkit['create']>>();

export async function renderReport(content: ReportContent, secret: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const who = content.referenceId ?? content.reviewId;
  const number = content.sheet?.number ?? 1;
  doc.setTitle(`Loan package review ${who}, release ${number}`, { showInWindowTitleBar: true });
  doc.setSubject('Quality-control report of a loan package; also the working document for answering its findings.');
  doc.setLanguage('en-US');
  doc.setCreationDate(content.generatedAt);
  doc.setModificationDate(content.generatedAt);
  // The text's fonts are embedded (subsets of DejaVu Sans: any viewer shows the same pages, and names
  // beyond Latin-1 print). The form's fields keep Helvetica, a viewer's own font: whatever a reviewer
  // types is drawn, which a subset lacking those glyphs could not do.
  doc.registerFontkit(parsedFonts);
  const faces = await dejaVu();
  const fonts = {
    regular: await doc.embedFont(faces.regular, { subset: true }),
    bold: await doc.embedFont(faces.bold, { subset: true }),
  };
  const fieldFont = await doc.embedFont(StandardFonts.Helvetica);
  const w = new PageWriter(doc, fonts);
  const form = doc.getForm();
  const { summary, findings, sheet } = content;

  // Page 1: the loan at a glance.
  w.text('Loan package quality-control report', { role: 'H1', font: fonts.bold, size: 18, after: 2 });
  w.text(content.referenceId ? `Loan ${content.referenceId}` : `Review ${content.reviewId}`, {
    size: 11,
    color: MUTED,
  });
  const amends = sheet?.previous
    ? ` \u2014 amends release ${sheet.previous.number} of ${formatInstant(sheet.previous.generatedAt)}`
    : '';
  w.text(`Release ${number}, ${formatInstant(content.generatedAt)}${amends}`, { size: 10, color: MUTED, after: 6 });
  if (content.sandbox)
    w.text('SANDBOX: sample data only; nothing here describes the uploaded documents.', {
      font: fonts.bold,
      size: 10,
      color: SEVERITY_COLORS.critical,
      after: 4,
    });

  w.text(outcomeInWords(content.outcome, summary), { font: fonts.bold, size: 12, after: 4 });
  severityChips(w, summary);

  w.section(() => {
    w.text('The loan at a glance', { role: 'H2', font: fonts.bold, size: 11, after: 2 });
    if (sheet?.particulars) {
      const read = new Map(sheet.particulars.glance.map((g) => [g.label, g]));
      w.table(
        [
          { header: '', width: 90 },
          { header: 'As read', width: 250 },
          { header: 'Source', width: WIDTH - 340 },
        ],
        GLANCE_LABELS.map((label) => {
          const g = read.get(label);
          return g
            ? { cells: [label, g.value, `${g.document}, p.${g.page}`] }
            : { cells: [label, 'not found in the package', ''], colors: [undefined, MUTED] };
        }),
      );
    } else {
      w.text('Not recorded for this release.', { color: MUTED, after: 6 });
    }
  });

  w.section(() => {
    w.text('Documents reviewed', { role: 'H2', font: fonts.bold, size: 11, after: 2 });
    if (sheet?.particulars && sheet.particulars.documents.length > 0) {
      w.table(
        [
          { header: 'File', width: 170 },
          { header: 'Found', width: 190 },
          { header: 'Pages', width: 40 },
          { header: 'Note', width: WIDTH - 400 },
        ],
        sheet.particulars.documents.map((d) =>
          d.unreadable === null
            ? { cells: [d.file, d.found.join(', ') || 'nothing recognised', String(d.pages), ''] }
            : {
                cells: [d.file, '-', '-', `Unreadable: ${d.unreadable}`],
                colors: [undefined, undefined, undefined, SEVERITY_COLORS.critical],
              },
        ),
      );
    } else {
      w.text('Not recorded for this release.', { color: MUTED, after: 6 });
    }
  });

  const changes = changesSince(content);
  if (sheet?.previous) {
    const previous = sheet.previous;
    w.section(() => {
      w.text(`Changes since release ${previous.number}`, { role: 'H2', font: fonts.bold, size: 11, after: 2 });
      if (changes.length === 0) w.text('No finding changed.', { color: MUTED, after: 6 });
      else
        w.table(
          [
            { header: '', width: 60 },
            { header: 'Finding', width: 250 },
            { header: '', width: WIDTH - 310 },
          ],
          changes.map((c) => ({ cells: [c.kind, c.finding, c.note] })),
        );
    });
  }

  howToAnswer(w);

  // The findings table, then a section per finding.
  const pictures = await embedPictures(doc, content.pictures);
  if (findings.length > 0) {
    w.newPage();
    w.section(() => {
      w.text('Findings', { role: 'H2', font: fonts.bold, size: 14, after: 4 });
      w.table(
        [
          { header: 'Finding', width: 120 },
          { header: 'Severity', width: 55 },
          { header: 'Title', width: 220 },
          { header: 'Document, page', width: WIDTH - 395 },
        ],
        findings.map((f) => ({
          cells: [f.key, capital(f.severity), f.title, whereOf(f)],
          colors: [undefined, SEVERITY_COLORS[f.severity]],
        })),
      );
      const standing = new Map((sheet?.standing ?? []).map((d) => [d.findingId, d]));
      for (const f of findings) w.section(() => findingSection(w, form, fieldFont, f, standing.get(f.key), pictures));
    });
  } else {
    w.text('No issues were found.', { after: 6 });
  }

  w.footers(`Review ${content.reviewId} \u00b7 release ${number}, ${formatInstant(content.generatedAt)}`);
  w.finish();
  // Viewers show the title, not the file name (PDF/UA).
  doc.catalog.getOrCreateViewerPreferences().setDisplayDocTitle(true);
  stampWorkingDocument(doc, { reviewId: content.reviewId, releaseId: content.releaseId }, secret);
  // pdf-lib's save waits a timer tick (a millisecond or more in Node) every 50 objects, to keep a browser
  // responsive; the structure tree's thousands of elements made those waits most of a report's added time.
  // Drawing the pages held the event loop far longer than the save does.
  return doc.save({ objectsPerTick: Infinity });
}

/** A finding's section: its heading, summary, regulation and evidence, and its form fields. */
/** Each picture embedded once, however many findings cite its value. */
async function embedPictures(
  doc: PDFDocument,
  pictures: ReadonlyMap<string, EvidencePicture> | undefined,
): Promise<Map<string, { image: PlacedImage; picture: EvidencePicture }>> {
  const embedded = new Map<string, { image: PlacedImage; picture: EvidencePicture }>();
  for (const [key, picture] of pictures ?? []) embedded.set(key, { image: await placePng(doc, picture.png), picture });
  return embedded;
}

/** The colour of the box drawn round a value in its picture. */
const MARK = rgb(0.86, 0.1, 0.1);
/** Widest a picture is shown (points); narrower ones keep the size they were printed at. */
const PICTURE_WIDTH = 400;

/** The region of the page where the value was printed, shown at its printed size, the value boxed. */
function evidencePicture(w: PageWriter, e: Evidence, embedded: { image: PlacedImage; picture: EvidencePicture }): void {
  const { image, picture } = embedded;
  const width = Math.min(PICTURE_WIDTH, picture.width / picture.scale);
  const height = (picture.height / picture.scale) * (width / (picture.width / picture.scale));
  const value = e.value === null ? 'blank' : forPeople(e.value);
  const alt = `${fieldName(e.field)} as printed in ${e.document}, page ${e.page}: ${value}, boxed in red.`;
  w.figure(alt, height + 8, (page, top) => {
    const x = MARGIN + 20;
    const y = top - height - 2;
    const name = page.node.newXObject('Image', image.ref);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(width, 0, 0, height, x, y),
      drawObject(name),
      popGraphicsState(),
    );
    page.drawRectangle({ x, y, width, height, borderColor: RULE, borderWidth: 0.5 });
    const { left, top: markTop, right, bottom } = picture.mark;
    page.drawRectangle({
      x: x + left * width,
      y: y + (1 - bottom) * height,
      width: (right - left) * width,
      height: (bottom - markTop) * height,
      borderColor: MARK,
      borderWidth: 1.5,
    });
  });
}

function findingSection(
  w: PageWriter,
  form: PDFForm,
  fieldFont: PDFFont,
  f: Finding,
  prior: DecisionOnFinding | undefined,
  pictures: ReadonlyMap<string, { image: PlacedImage; picture: EvidencePicture }>,
): void {
  const fonts = w.fonts;
  w.room(150);
  w.rule(10);
  const color = SEVERITY_COLORS[f.severity];
  w.decoration((page) => page.drawRectangle({ x: MARGIN, y: w.y - 13, width: 4, height: 14, color }));
  w.text(`${f.key}  ${f.title}`, { role: 'H3', font: fonts.bold, size: 11, indent: 10 });
  w.text(`${capital(f.severity)} severity, ${f.category}`, { size: 8.5, indent: 10, color, after: 2 });
  w.text(forPeople(f.summary), { indent: 10, after: 3 });
  if (f.regulation) w.text(`Regulation: ${f.regulation}`, { size: 9, indent: 10, color: MUTED, after: 2 });
  if (f.evidence.length > 0) {
    w.text('Evidence', { font: fonts.bold, size: 9, indent: 10 });
    for (const e of f.evidence) {
      w.text(
        `${fieldName(e.field)}: ${e.value === null ? 'blank or not printed' : forPeople(e.value)} ` +
          `(${e.document}, p.${e.page})`,
        { size: 9, indent: 20 },
      );
      const key = pictureKey(e);
      const picture = key === undefined ? undefined : pictures.get(key);
      if (picture) evidencePicture(w, e, picture);
    }
    w.y -= 2;
  }
  const names = findingFieldNames(f.key);
  w.room(64);
  // Each label is read just before its field; the field's description says the same with the finding.
  w.paint('P', (page) =>
    page.drawText('Decision', { x: MARGIN + 10, y: w.y - 12, size: 9, font: fonts.regular, color: INK }),
  );
  const decision = form.createDropdown(names.decision);
  decision.addOptions(['', ...DISPOSITION_DECISIONS]);
  if (prior) decision.select(prior.decision);
  w.field(decision, `Decision on ${f.key}`, (page) =>
    decision.addToPage(page, { x: MARGIN + 90, y: w.y - 16, width: 130, height: 16, font: fieldFont }),
  );
  w.paint('P', (page) =>
    page.drawText('Cure document', { x: MARGIN + 240, y: w.y - 12, size: 9, font: fonts.regular, color: INK }),
  );
  const cure = form.createTextField(names.cureDocument);
  w.field(cure, `Cure document for ${f.key}`, (page) =>
    cure.addToPage(page, { x: MARGIN + 320, y: w.y - 16, width: WIDTH - 320, height: 16, font: fieldFont }),
  );
  w.y -= 24;
  w.paint('P', (page) =>
    page.drawText('Comment', { x: MARGIN + 10, y: w.y - 12, size: 9, font: fonts.regular, color: INK }),
  );
  const comment = form.createTextField(names.comment);
  comment.enableMultiline();
  if (prior?.comment) comment.setText(w.printable(prior.comment, fieldFont));
  w.field(comment, `Comment on ${f.key}`, (page) =>
    comment.addToPage(page, { x: MARGIN + 90, y: w.y - 34, width: WIDTH - 90, height: 34, font: fieldFont }),
  );
  w.y -= 46;
  if (prior)
    w.text(`Decided earlier: ${prior.decision}. Leave it to keep it, or change it.`, {
      size: 8,
      indent: 90,
      color: MUTED,
      after: 2,
    });
}

/** A coloured chip per severity with its count, on one line. */
function severityChips(w: PageWriter, s: Summary): void {
  w.room(30);
  let x = MARGIN;
  const size = 9;
  for (const sev of SEVERITIES) {
    const n = s[sev];
    const label = `${n} ${sev}`;
    const width = w.measure(label, w.fonts.bold, size) + 16;
    const color = SEVERITY_COLORS[sev];
    w.decoration((page) =>
      page.drawRectangle({
        x,
        y: w.y - 18,
        width,
        height: 18,
        color: n > 0 ? color : rgb(1, 1, 1),
        borderColor: n > 0 ? color : RULE,
        borderWidth: 0.8,
      }),
    );
    w.paint('P', (page) =>
      page.drawText(label, { x: x + 8, y: w.y - 13, size, font: w.fonts.bold, color: n > 0 ? rgb(1, 1, 1) : MUTED }),
    );
    x += width + 6;
  }
  w.y -= 30;
}

/** The short "How to answer" box: what to do with this document, in a reviewer's words. */
function howToAnswer(w: PageWriter): void {
  const lines = [
    'For each finding, choose a decision: cleared (not an issue), disputed (add your reason in the ' +
      'comment) or cure_attached (name the curing document in Cure document).',
    'Save this PDF with its form filled (do not print or flatten it) and send it back with any ' +
      'curing documents, as new documents of this review, through your loan system.',
    'The review is re-assessed and an amended report follows; decisions you made stay filled in.',
  ];
  const size = 9;
  const height = lines.reduce((h, l) => h + w.wrap(l, w.fonts.regular, size, WIDTH - 24).length * (size + 4), 0) + 30;
  w.room(height);
  w.section(() => {
    w.decoration((page) =>
      page.drawRectangle({
        x: MARGIN,
        y: w.y - height,
        width: WIDTH,
        height,
        color: rgb(0.96, 0.97, 0.99),
        borderColor: RULE,
        borderWidth: 0.8,
      }),
    );
    w.y -= 8;
    w.text('How to answer', { role: 'H2', font: w.fonts.bold, size: 10, indent: 12, after: 2 });
    for (const l of lines) w.text(l, { size, indent: 12, width: WIDTH - 24 });
  });
  w.y -= 12;
}
