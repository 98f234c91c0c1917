// Document classes, and the classifier that reads the titles a page prints: splits multi-document files
// (a whole loan file in one PDF) into logical documents and names each one's class.
import { findDate } from './extract/values.js';
import type { IsoDate } from './fields.js';

export const DOCUMENT_CLASSES = [
  'closing_disclosure',
  'loan_estimate',
  'note',
  'security_instrument',
  'urla',
  'appraisal',
  'pay_stub',
  'w2',
  'bank_statement',
  'credit_report',
  'settlement_statement',
  'tax_return',
  'affidavit',
  'service_provider_list',
  'other',
] as const;
export type DocumentClass = (typeof DOCUMENT_CLASSES)[number];

/**
 * Documents that make a package a loan package: without one the review waits for documents (decisions.md,
 * "Awaiting documents").
 */
export const PRIMARY_CLASSES: ReadonlySet<DocumentClass> = new Set(['closing_disclosure', 'loan_estimate', 'note']);

export const CLASS_NAMES: Record<DocumentClass, string> = {
  closing_disclosure: 'Closing Disclosure',
  loan_estimate: 'Loan Estimate',
  note: 'Note',
  security_instrument: 'security instrument (Deed of Trust / Mortgage)',
  urla: 'loan application (URLA)',
  appraisal: 'appraisal (1004/URAR)',
  pay_stub: 'pay stub',
  w2: 'W-2',
  bank_statement: 'bank statement',
  credit_report: 'credit report',
  settlement_statement: 'settlement statement (HUD-1 / ALTA)',
  tax_return: 'tax return (Form 1040)',
  affidavit: 'affidavit',
  service_provider_list: 'written list of service providers',
  other: 'unclassified document',
};

// Titles as the forms print them: the core of a title line, which may carry a prefix ("Form 1003", "Final",
// "Borrower Stated Income") and a suffix ("— Corrected Copy", "(Page 1)", "2025", "/ Pay Slip"), but no
// more: prose that mentions a form ("See your note and security instrument") is never a title, and neither
// is a fee line that names one ("Credit report to Acme").
const TITLES: [DocumentClass, RegExp][] = [
  ['closing_disclosure', /closing disclosure|declaraci[oó]n de cierre/],
  ['loan_estimate', /loan estimate|estimaci[oó]n (?:de|del) pr[eé]stamo/],
  // The HUD/VA Addendum (VA Form 26-1802a, HUD 92900-A) travels with the application and is read with it.
  [
    'urla',
    /(?:(?:hud\/va|hud-va|va\/hud)\s+)?(?:addendum to (?:the )?)?(?:uniform )?residential loan application|solicitud uniforme de pr[eé]stamo residencial/,
  ],
  ['appraisal', /uniform residential appraisal report|(?:residential )?appraisal report/],
  ['note', /(?:(?:adjustable|fixed|balloon|interest[- ]only)\s+rate\s+)?(?:promissory\s+)?note/],
  ['security_instrument', /deed of trust|mortgage|security deed|open-end mortgage|security instrument/],
  ['w2', /w-2(?:\s+wage and tax statement)?|wage and tax statement/],
  [
    'pay_stub',
    /earnings statement|pay ?stub|pay ?slip|pay statement|payroll statement|statement of earnings(?: and deductions)?|earnings and deductions/,
  ],
  ['bank_statement', /(?:[a-z]+ )?(?:bank|account|checking|savings|deposit) statement/],
  ['credit_report', /(?:[a-z-]+ )*credit report/],
  [
    'settlement_statement',
    /(?:a\.\s+)?settlement statement(?:\s*\(hud-1a?\))?|hud-1a?(?: settlement statement)?|(?:alta )?(?:combined |buyer'?s? |seller'?s? |borrower'?s? )?settlement statement/,
  ],
  [
    'tax_return',
    /u\.?s\.? individual income tax return|(?:form )?1040(?:-sr)?|schedule [a-z0-9]{1,3}(?:\s*\(form 1040\))?/,
  ],
  ['affidavit', /(?:[a-z'’-]+\s+){0,5}affidavit(?:\s+of\s+[a-z'’ -]{1,40})?/],
  [
    'service_provider_list',
    /(?:written )?list of (?:settlement )?service providers|(?:settlement )?service providers? list/,
  ],
];

/** Words that may precede a title's core on its line. */
const PREFIX =
  /(?:(?:form|fannie mae|freddie mac|hud|va|irs|final|revised|corrected|amended|initial|updated|sample|copy|official|combined|buyer'?s?|seller'?s?|borrower'?s?|lender'?s?|[a-z]?-?\d[\w().-]*)\s+)*/;
/** Words that may follow it: a copy's status, page numbering, a form number or year, another name of the form. */
const SUFFIX_WORD =
  /^(?:corrected|revised|amended|final|initial|copy|page|p\.?|of|de|p[aá]gina|form|model|sample|borrower'?s?|seller'?s?|lender'?s?|version|cont(?:inued|'d|\.)?|and|y|pay|slip|stub|earnings|statement|advice|deductions|summary|addendum|for|the|tax|year|omb|no\.?|[a-z]?-?\d[\w().-]*|[-–—:/|(),.#•*]+|\([^)]{0,20}\))$/i;

/** What follows a title that makes its document a new version of an earlier one. */
const NEW_VERSION = /^[-–—:,(\s]*(?:corrected|revised|amended|updated|replacement|superseding)\b/i;

const titlePatterns = TITLES.map(
  ([cls, core]) => [cls, new RegExp(`^${PREFIX.source}(?:${core.source})(?<rest>.*)$`, 'i')] as const,
);

/** The class whose title `text` is, or null: the title's core with at most a prefix and a suffix of its kind. */
export function titleClass(text: string): DocumentClass | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t === '' || t.length > 90) return null;
  for (const [cls, pattern] of titlePatterns) {
    const m = pattern.exec(t);
    if (!m) continue;
    const rest = m.groups!.rest!.trim();
    // The core must end at a word boundary ("Notes payable" is no Note) and what follows it be a suffix,
    // or a new version's own words ("— CORRECTED COPY (supersedes all prior versions)").
    if (rest !== '' && /^[a-z0-9]/i.test(m.groups!.rest!)) continue;
    if (rest.split(/\s+/).every((w) => w === '' || SUFFIX_WORD.test(w)) || NEW_VERSION.test(rest)) return cls;
  }
  return null;
}

/**
 * Titles of documents the rules have no class for, which still start a document of their own inside a
 * loan file (class `other`): a letter, a circular, a memo, a note to processors, an addendum.
 */
const OTHER_TITLE =
  /^(?:[A-Z][\w'’./&-]*\s+){1,7}(?:Note|Memo(?:randum)?|Letter(?: of [A-Z][\w ]{2,40})?|Notice|Circular|Addendum|Certificat(?:e|ion)|Agreement|Explanation|Authorization|Verification|Request|Bulletin|Announcement|Acknowledg(?:e)?ment|Invoice|Receipt)(?:\s+[\w-]+){0,3}$/;

/** A résumé prints these headings on lines of their own; three of them make one. */
const RESUME_HEADINGS =
  /^(?:objective|summary|professional summary|experience|work experience|employment history|education|skills|references|certifications)$/i;

/** "Page 2 of 5", "PAGE 2 OF 5", "Página 2 de 6": the document's own page numbering. */
export function pageFooter(lines: readonly string[]): { index: number; of: number } | undefined {
  for (const line of lines.slice(-4).reverse()) {
    const m = /\bp(?:age|[aá]gina)\s*(\d{1,4})\s+(?:of|de)\s+(\d{1,4})\b/i.exec(line);
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= Number(m[2])) return { index: Number(m[1]), of: Number(m[2]) };
  }
  return undefined;
}

/** Lines at the top and at the foot of a page where its running header and footer stand. */
const RUNNING_LINES = 4;

/**
 * Every page numbering a page prints in its running header or footer: a report may number its form's own
 * pages ("Page 6 of 6") and, beside it, the whole report with its addenda ("Page 6 of 22").
 */
export function pageNumberings(lines: readonly string[]): { index: number; of: number }[] {
  const running =
    lines.length <= 2 * RUNNING_LINES ? lines : [...lines.slice(0, RUNNING_LINES), ...lines.slice(-RUNNING_LINES)];
  const found: { index: number; of: number }[] = [];
  for (const line of running)
    for (const m of line.matchAll(/\bp(?:age|[aá]gina)\s*(\d{1,4})\s+(?:of|de)\s+(\d{1,4})\b/gi)) {
      const index = Number(m[1]);
      const of = Number(m[2]);
      if (index >= 1 && index <= of && !found.some((f) => f.index === index && f.of === of)) found.push({ index, of });
    }
  return found;
}

/** The file number a page prints in its running header or footer ("File # 2024-0815", "File No. A1234"). */
export function fileNumber(lines: readonly string[]): string | undefined {
  const running = [...lines.slice(0, RUNNING_LINES + 2), ...lines.slice(-RUNNING_LINES)];
  for (const line of running) {
    const m = /\bfile\s*(?:no\.?|number|#)\s*[:.]?\s*([a-z0-9][a-z0-9./-]{2,24})\b/i.exec(line);
    if (m && /\d/.test(m[1]!)) return m[1]!.toUpperCase();
  }
  return undefined;
}

/**
 * The headings of pages that go on with the document before them without its form's title: addenda and
 * exhibits, riders, photo pages, maps, sketches, certifications and signature pages, an invoice, an
 * allonge, a legal description. A few words may stand around the heading ("Supplemental Addendum",
 * "Subject Photo Page", "Exhibit A – Legal Description", "Appraiser's Certification").
 */
const CONTINUATION_HEADING =
  /^(?:[\w'’&./-]+\s+){0,4}(?:(?:supplemental\s+)?addend(?:um|a)|exhibit(?:\s+[a-z0-9]{1,3}\b)?|riders?|photo(?:graph)?s?|photo\s+(?:page|addendum)|(?:location|plat|flood|aerial|area|street)\s+maps?|maps?|(?:building\s+|floor\s+plan\s+)?sketch(?:\s+addendum)?|floor\s+plans?|certifications?|signatures?(?:\s+page)?|invoice|allonge(?:\s+to\s+note)?|legal\s+description)(?:\s+[\w'’&.#:()–—-]+){0,5}$/i;

/** Photo captions: a photo page of a report says what each photo shows. */
const PHOTO_CAPTION =
  /\b(?:front|rear|side)\s+view\b|\bstreet\s+scene\b|\bcomparable\s+(?:sale\s+|listing\s+|rental\s+)?#?\s?\d\b/i;

/** A page that says it goes on with the document before it: a continuation heading, or photo captions. */
export function continuationPage(page: PageLines): boolean {
  const { lines, headings } = normalise(page);
  const heading = [...lines.slice(0, TITLE_LINES), ...headings].some((line) => {
    const t = line.replace(/\s+/g, ' ').trim();
    return t.length <= 70 && !/[.;]$/.test(t) && CONTINUATION_HEADING.test(t);
  });
  return heading || lines.filter((l) => PHOTO_CAPTION.test(l)).length >= 2;
}

/**
 * What the classifier reads of a page: its lines top to bottom, and the phrases set in a heading's size (a
 * title may stand anywhere on its page: a W-2's at its foot). A plain list of lines has no headings.
 */
export type PageLines = readonly string[] | { lines: readonly string[]; headings: readonly string[] };

function normalise(page: PageLines): { lines: readonly string[]; headings: readonly string[] } {
  return Array.isArray(page) ? { lines: page, headings: [] } : (page as Exclude<PageLines, readonly string[]>);
}

/** Lines from the top of a page where a title may stand in body size; a cover sheet's sits lower. */
const TITLE_LINES = 8;

/**
 * The running footers of the integrated disclosures: "LOAN ESTIMATE  PAGE 2 OF 3 • LOAN ID # ...". A CD's
 * is in capitals, or numbers its page: "Closing Disclosure for Disclosure Provided to Seller" closing a
 * cover sheet is prose.
 */
const FOOTERS: [DocumentClass, RegExp][] = [
  ['closing_disclosure', /^(?:CLOSING DISCLOSURE|DECLARACI[OÓ]N DE CIERRE)\b/],
  ['closing_disclosure', /^(?:closing disclosure|declaraci[oó]n de cierre)\b.*\b(?:page|p[aá]gina)\s*\d/i],
  ['loan_estimate', /^(?:LOAN ESTIMATE|ESTIMACI[OÓ]N DE(?:L)? PR[EÉ]STAMO)\b.*\b(?:PAGE|P[AÁ]GINA)\s*\d/i],
];

/** What a page announces: the class of a title, `other` for a title of no class, or null for none. */
export function pageClass(page: PageLines): DocumentClass | null {
  const { lines, headings } = normalise(page);
  for (const line of lines.slice(0, TITLE_LINES)) {
    // A line that is a title. A title phrase sharing its line with others counts only in a heading's size
    // (below): in body size it is a table's column head ("Loan Estimate  Final  Did this change?").
    const cls = titleClass(line);
    if (cls) return cls;
  }
  for (const heading of headings) {
    const cls = titleClass(heading);
    if (cls) return cls;
  }
  for (const line of lines.slice(-3)) {
    for (const [cls, footer] of FOOTERS) if (footer.test(line.trim())) return cls;
  }
  if (lines.slice(0, 3).some((l) => OTHER_TITLE.test(l.trim()) && !/[.;]$/.test(l.trim()))) return 'other';
  if (lines.filter((l) => RESUME_HEADINGS.test(l.trim())).length >= 3) return 'other';
  return null;
}

// A page without a title that names a form in its top lines (a cover sheet: "H-25(B) Mortgage Loan
// Transaction Closing Disclosure – Fixed Rate Loan Sample") belongs to the document that starts next,
// when that one is of the form it names. Only unambiguous form names count here.
const FORM_NAMES: [DocumentClass, RegExp][] = [
  ['closing_disclosure', /closing\s+disclosure|declaraci[oó]n\s+de\s+cierre/i],
  ['loan_estimate', /loan\s+estimate|estimaci[oó]n\s+de(?:l)?\s+pr[eé]stamo/i],
  ['urla', /uniform\s+residential\s+loan\s+application/i],
  ['appraisal', /uniform\s+residential\s+appraisal\s+report/i],
  ['security_instrument', /deed\s+of\s+trust/i],
  ['w2', /wage\s+and\s+tax\s+statement|\bforms?\s+w-2\b/i],
  ['pay_stub', /earnings\s+statement/i],
  ['settlement_statement', /settlement\s+statement/i],
  ['credit_report', /credit\s+report/i],
];

function mentionedForm(lines: readonly string[]): DocumentClass | undefined {
  const text = lines.join('\n');
  let best: { cls: DocumentClass; at: number } | undefined;
  for (const [cls, name] of FORM_NAMES) {
    const at = text.search(name);
    if (at >= 0 && (!best || at < best.at)) best = { cls, at };
  }
  return best?.cls;
}

/** Lines a cover sheet's form name is looked for in: the sheet's heading, not its body text. */
const COVER_LINES = 6;

/** The form a cover sheet names in a heading line of its top (a line that is no sentence). */
function coverOf(lines: readonly string[]): DocumentClass | undefined {
  const headings = lines
    .slice(0, COVER_LINES)
    .filter((l) => !/[.;,]\s*$/.test(l.trim()) && l.trim().split(/\s+/).length <= 14);
  return mentionedForm(headings);
}

export interface DocumentRun {
  documentClass: DocumentClass;
  /** Indexes into the file's pages. */
  pages: number[];
}

/**
 * Splits a file's pages into logical documents (docs/reading.md, "From words to documents"). A page starts a
 * new document when it announces a title of another class (or `other`: a letter, a circular, a note); for
 * its own form's, when the document before is complete ("Page n of n"; the form's instructions stay with
 * it), when it restarts a numbering ("Page 1 of n"; the page before's own number again is another version of
 * that page), when its title says it is a new version ("Corrected", "Revised") or it prints another Date
 * Issued than the document before, or when it opens with the title as the document before did and neither is
 * numbered (a second pay stub). A cover sheet naming a form starts that form's document; pages announcing
 * nothing continue the document before them, or after a complete one join the next (a document of class
 * `other` when none follows). Leading pages before the first title belong to the first document; a file that
 * announces nothing is one document, of the class its first pages name or `other`.
 */
export function splitDocuments(pages: readonly PageLines[]): DocumentRun[] {
  const runs: DocumentRun[] = [];
  const numberings = pages.map((page) => pageNumberings(normalise(page).lines));
  // A page's own numbering: in its footer, or else in its running header.
  const footers = pages.map((page, i) => pageFooter(normalise(page).lines) ?? numberings[i]![0]);
  const fileNumbers = pages.map((page) => fileNumber(normalise(page).lines));
  /**
   * A document whose last page says "Page n of n" (each of its numberings, when it prints more than one):
   * no untitled page after it is its own unless it says it goes on with it (`goesOn`).
   */
  const complete = (run: DocumentRun) => {
    const last = numberings[run.pages.at(-1)!]!;
    return last.length > 0 && last.every((n) => n.index === n.of);
  };
  /**
   * A page that goes on with the document before it though it announces no form of its own (or that
   * form's title again): its heading says so (an addendum, a photo page, a map, a sketch, a rider, an
   * exhibit, a certification, an invoice), it prints the document's file number, or it numbers on from
   * the document's last page ("Page 7 of 22" after "Page 6 of 22").
   */
  const goesOn = (run: DocumentRun, index: number) => {
    const file = fileNumbers[index];
    const last = numberings[run.pages.at(-1)!]!;
    return (
      continuationPage(pages[index]!) ||
      (file !== undefined && run.pages.some((i) => fileNumbers[i] === file)) ||
      numberings[index]!.some((n) => last.some((l) => l.of === n.of && l.index + 1 === n.index))
    );
  };
  /**
   * A page opening with its form's title, after a document of that form that opened with it too, where
   * neither prints a page numbering: the next one (a second pay stub), not a page of the first. Numbered
   * forms that repeat their title on every page (an appraisal's) go by their numbering; a form's copies
   * ("Copy B", "Copy C" of a W-2) are one document.
   */
  const anotherUnnumbered = (run: DocumentRun, index: number) =>
    footers[index] === undefined &&
    !copyOfForm(pages[index]!) &&
    run.pages.every((i) => footers[i] === undefined) &&
    opensWith(pages[index]!, run.documentClass) &&
    run.pages.some((i) => opensWith(pages[i]!, run.documentClass));
  const issued = pages.map(dateIssued);
  /**
   * A disclosure's first page printing another Date Issued than a page of the document before: a new
   * issue of the form (a revised LE, a corrected CD), whatever its numbering says.
   */
  const reissued = (run: DocumentRun, index: number) =>
    issued[index] !== undefined && run.pages.some((i) => issued[i] !== undefined && issued[i] !== issued[index]);
  /** Pages waiting for the next document: leading pages, or untitled pages after a complete document. */
  let pending: { pages: number[] } = { pages: [] };
  /** Pages taken for cover sheets: a document of nothing else is no document of the form it names. */
  const covers = new Set<number>();
  pages.forEach((page, index) => {
    const { lines } = normalise(page);
    const cls = pageClass(page);
    const current = runs.at(-1);
    const footer = footers[index];
    // The page before's own number again ("Page 1 of 3" twice): another version of that page, as model forms
    // print their variants, not a new document; one-page documents ("Page 1 of 1") each stand alone.
    const before = footers[index - 1];
    const repeats =
      footer !== undefined &&
      before !== undefined &&
      footer.of > 1 &&
      footer.of === before.of &&
      footer.index === before.index &&
      current?.pages.includes(index - 1) === true;
    // Only a numbering can restart: a cover sheet before a form's "Page 1 of n" is the form's.
    const restarts =
      footer?.index === 1 && current !== undefined && current.pages.some((i) => footers[i] !== undefined) && !repeats;
    // A page of no other known form that says it goes on with the document before: the document's (with
    // any untitled pages between), even after its last numbered page.
    const continuation =
      current !== undefined &&
      (cls === null || cls === 'other' || cls === current.documentClass) &&
      !newVersion(page) &&
      !reissued(current, index) &&
      // A rider or an exhibit numbers its own pages ("Page 1 of 2"): its heading says it goes on all the same.
      (!restarts || continuationPage(page)) &&
      !(cls === current.documentClass && anotherUnnumbered(current, index)) &&
      goesOn(current, index);
    if (continuation) {
      flush(current);
      current.pages.push(index);
      return;
    }
    const starts =
      current === undefined ||
      cls !== current.documentClass ||
      cls === 'other' ||
      newVersion(page) ||
      reissued(current, index) ||
      (!repeats && (restarts || (complete(current) && !instructions(page)))) ||
      anotherUnnumbered(current, index);
    if (cls !== null && starts) {
      runs.push({ documentClass: cls, pages: [...pending.pages, index] });
      pending = { pages: [] };
      return;
    }
    if (cls === null && restarts) {
      // A new document that announces nothing: what its first page names, if anything.
      flush(current);
      runs.push({ documentClass: coverOf(lines) ?? 'other', pages: [index] });
      return;
    }
    const names = cls === null && footer === undefined ? coverOf(lines) : undefined;
    if (names !== undefined && coverSheet(lines)) {
      // A cover sheet (a short page naming a form in its heading) starts the document of that form, the
      // file's first page as any other: the untitled pages after it (an excerpt of the form, its
      // instructions) are the form's. A second cover of the same form (a fax cover before the form's own)
      // joins the first.
      covers.add(index);
      if (current?.pages.every((i) => covers.has(i)) && current.documentClass === names)
        current.pages.push(...pending.pages, index);
      else runs.push({ documentClass: names, pages: [...pending.pages, index] });
      pending = { pages: [] };
      return;
    }
    if (cls === null && current !== undefined && complete(current)) {
      // After a complete document: the page introduces what follows it, or is a document of its own.
      pending = { pages: [...pending.pages, index] };
      return;
    }
    if (current) {
      flush(current);
      current.pages.push(index);
    } else pending.pages.push(index);
  });
  function flush(current: DocumentRun | undefined): void {
    if (current && pending.pages.length > 0) current.pages.push(...pending.pages);
    pending = { pages: [] };
  }
  if (runs.length === 0) {
    const all = pages.map((p) => normalise(p).lines);
    return [{ documentClass: mentionedForm(all.slice(0, 3).flat()) ?? 'other', pages: pending.pages }];
  }
  const last = runs.at(-1)!;
  // Pages left after a complete document introduce nothing: a document of their own.
  if (pending.pages.length > 0 && complete(last)) runs.push({ documentClass: 'other', pages: pending.pages });
  else last.pages.push(...pending.pages);
  for (const run of runs) {
    run.pages.sort((a, b) => a - b);
    // Cover sheets whose form never came: they belong to nothing.
    if (run.pages.every((i) => covers.has(i))) run.documentClass = 'other';
  }
  return runs;
}

/** A cover sheet is short: a page of more lines naming a form is the form's own prose citing it. */
const COVER_MAX_LINES = 24;

/**
 * A page that may be a cover sheet: short, and without a table row (a line of a few words ending in an
 * amount: an excerpt of a form's table is no cover; a cover's prose may cite an amount).
 */
function coverSheet(lines: readonly string[]): boolean {
  return (
    lines.length <= COVER_MAX_LINES &&
    !lines.some((l) => /\$\s?[\d,.]+\s*(?:\S+\s*){0,2}$/.test(l) && l.trim().split(/\s+/).length <= 10)
  );
}

/** A page that says it is one of a form's copies ("Copy B—To Be Filed With Employee's FEDERAL Tax Return"). */
function copyOfForm(page: PageLines): boolean {
  return normalise(page).lines.some((line) => /\bcopy\s+[a-d12]\b/i.test(line));
}

/** Whether a line near the top of the page is the title of `cls`. */
function opensWith(page: PageLines, cls: DocumentClass): boolean {
  return normalise(page)
    .lines.slice(0, TITLE_LINES)
    .some((line) => titleClass(line) === cls);
}

/** Instructions for a form ("Instructions", "How to complete this form"): they stay with their form. */
function instructions(page: PageLines): boolean {
  const { lines, headings } = normalise(page);
  return [...lines.slice(0, TITLE_LINES), ...headings].some((line) =>
    /^(?:general\s+|specific\s+)?instructions?\b|^how to (?:complete|use|read)\b/i.test(line.trim()),
  );
}

/** Lines from the top of a disclosure's first page where its Date Issued stands, beside the title block. */
const ISSUE_LINES = 12;

/** The date a disclosure's first page says it was issued ("Date Issued 4/15/2013", "Fecha de emisión"). */
function dateIssued(page: PageLines): IsoDate | undefined {
  for (const line of normalise(page).lines.slice(0, ISSUE_LINES)) {
    const label = /\b(?:date issued|fecha de emisi[oó]n)\b:?\s*(.*)$/i.exec(line);
    const date = label && findDate(label[1]!.slice(0, 24));
    if (date) return date;
  }
  return undefined;
}

/** A page whose title says it is a new version of its form ("Closing Disclosure — Corrected Copy"). */
function newVersion(page: PageLines): boolean {
  const { lines, headings } = normalise(page);
  return [...lines.slice(0, TITLE_LINES), ...headings].some(
    (line) => titleClass(line) !== null && /\b(?:corrected|revised|amended|supersed\w*|replacement)\b/i.test(line),
  );
}
