// Renders a release's report PDF, which is also the working document (DECISIONS 10): per finding a decision
// field (cleared, disputed, cure_attached or empty), a comment field and a cure-document field (the file
// name of the curing document uploaded with it), and the service marker of the review and release.
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Summary } from '../reviews/report.js';
import type { Finding } from '../qc/finding.js';
import { DISPOSITION_DECISIONS } from '../reviews/add-documents.js';
import { stampWorkingDocument } from '../working-document/marker.js';

export interface ReportContent {
  reviewId: string;
  releaseId: string;
  referenceId: string | null;
  sandbox: boolean;
  outcome: string;
  summary: Summary;
  findings: readonly Finding[];
  generatedAt: Date;
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

const PAGE: [number, number] = [612, 792];
const MARGIN = 54;
const WIDTH = PAGE[0] - 2 * MARGIN;

/** The standard fonts encode WinAnsi only: anything else is shown as '?' rather than failing the render. */
function printable(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/[\u2013\u2014]/g, '-').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of printable(text).split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

export async function renderReport(content: ReportContent, secret: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Loan package review ${content.referenceId ?? content.reviewId}`);
  doc.setCreationDate(content.generatedAt);
  doc.setModificationDate(content.generatedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const form = doc.getForm();

  let page: PDFPage = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const room = (height: number) => {
    if (y - height < MARGIN) {
      page = doc.addPage(PAGE);
      y = PAGE[1] - MARGIN;
    }
  };
  const text = (t: string, o: { font?: PDFFont; size?: number; indent?: number } = {}) => {
    const size = o.size ?? 10;
    for (const line of wrap(t, o.font ?? regular, size, WIDTH - (o.indent ?? 0))) {
      room(size + 4);
      page.drawText(line, { x: MARGIN + (o.indent ?? 0), y: y - size, size, font: o.font ?? regular });
      y -= size + 4;
    }
  };

  text('Loan package review: quality-control report', { font: bold, size: 16 });
  if (content.sandbox) text('SANDBOX: sample data only; nothing here describes the uploaded documents.', { font: bold, size: 10 });
  y -= 6;
  text(`Review ${content.reviewId}${content.referenceId ? ` (reference ${content.referenceId})` : ''}`);
  text(`Release ${content.releaseId}, generated ${content.generatedAt.toISOString()}`);
  const s = content.summary;
  text(`Outcome: ${content.outcome}. Issues: ${s.total} (critical ${s.critical}, high ${s.high}, medium ${s.medium}, low ${s.low}, info ${s.info}).`);
  y -= 6;
  text('To answer a finding, choose a decision, add a comment, and for "cure_attached" give the file name of the curing document; upload this PDF (not flattened or printed) with that document to POST /reviews/{review_id}/documents.', { size: 9 });
  y -= 10;

  for (const issue of content.findings) {
    room(120);
    text(`${issue.code}  [${issue.severity}, ${issue.category}]  ${issue.title}`, { font: bold, size: 11 });
    text(issue.summary, { indent: 12 });
    const names = findingFieldNames(issue.key);
    room(70);
    page.drawText('Decision', { x: MARGIN + 12, y: y - 12, size: 9, font: regular });
    const decision = form.createDropdown(names.decision);
    decision.addOptions(['', ...DISPOSITION_DECISIONS]);
    decision.addToPage(page, { x: MARGIN + 90, y: y - 16, width: 130, height: 16, font: regular });
    page.drawText('Cure document', { x: MARGIN + 240, y: y - 12, size: 9, font: regular });
    const cure = form.createTextField(names.cureDocument);
    cure.addToPage(page, { x: MARGIN + 320, y: y - 16, width: WIDTH - 320, height: 16, font: regular });
    y -= 24;
    page.drawText('Comment', { x: MARGIN + 12, y: y - 12, size: 9, font: regular });
    const comment = form.createTextField(names.comment);
    comment.enableMultiline();
    comment.addToPage(page, { x: MARGIN + 90, y: y - 34, width: WIDTH - 90, height: 34, font: regular });
    y -= 48;
  }
  if (content.findings.length === 0) text('No issues were found.');

  stampWorkingDocument(doc, { reviewId: content.reviewId, releaseId: content.releaseId }, secret);
  return doc.save();
}
