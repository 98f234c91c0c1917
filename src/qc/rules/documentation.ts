// The documentation rules, DOC-001 to DOC-009 (RULES.md): is every document there, signed, legible,
// complete and recent enough. Findings about one file carry the filename as their subject.
import type { Rule, RuleContext, RuleHit } from '../catalog.js';
import { CLASS_NAMES, type DocumentClass } from '../classify.js';
import type { DocumentOf, IsoDate, Located, LoanDocument, LoanFile } from '../fields.js';
import { organisationKey } from './names.js';
import {
  cite,
  clausesOf,
  consummationDate,
  daysBetween,
  documentsOf,
  evidenceOf,
  finalClosingDisclosure,
  listOf,
  pageOf,
} from './evidence.js';

/** The core documents every package needs; one DOC-001 per missing type. */
const CORE: DocumentClass[] = ['note', 'security_instrument', 'closing_disclosure', 'loan_estimate', 'urla'];

/** The core documents a regulation itself requires the creditor to provide. */
const DISCLOSURE_REQUIRED_BY: Partial<Record<DocumentClass, string>> = {
  loan_estimate: '12 CFR 1026.19(e)(1)(i)',
  closing_disclosure: '12 CFR 1026.19(f)(1)(i)',
};

/** Pay stubs, bank statements and credit reports may be this old at the closing date (DOC-008). */
const MAX_DOCUMENT_AGE_DAYS = 120;

/** A statement period may start this many days after the previous one ended and still follow it (DOC-004). */
const MAX_STATEMENT_GAP_DAYS = 5;

/** Filenames a finding lists in full; the rest are counted. */
const LISTED_FILES = 10;

export const rules: Rule[] = [
  {
    code: 'DOC-001',
    check: (loan) => {
      const present = new Set(loan.documents.map((d) => d.documentClass));
      return CORE.filter((cls) => !present.has(cls)).map((cls) => ({
        subject: cls,
        summary: `No ${CLASS_NAMES[cls]} was found among the ${packageSize(loan)} document(s) of the package.`,
        regulation: DISCLOSURE_REQUIRED_BY[cls] ?? null,
      }));
    },
  },
  {
    code: 'DOC-002',
    check: (loan) =>
      documentsOf(loan, 'appraisal').length > 0
        ? []
        : [
            {
              summary: `No appraisal (1004/URAR) was found among the ${packageSize(loan)} document(s) of the package.`,
            },
          ],
  },
  { code: 'DOC-003', check: (loan) => incomeDocumentationMissing(loan) },
  { code: 'DOC-004', check: (loan) => bankStatementsIncomplete(loan) },
  { code: 'DOC-005', check: (loan) => unsignedInstruments(loan) },
  { code: 'DOC-006', check: (loan, context) => illegiblePages(loan, context) },
  { code: 'DOC-007', check: (loan) => missingPages(loan) },
  { code: 'DOC-008', check: (loan) => staleDocuments(loan) },
  { code: 'DOC-009', check: (loan) => unclassifiedDocuments(loan) },
];

/** Logical documents plus the files that could not be read at all: what the uploader sent, as we saw it. */
function packageSize(loan: LoanFile): number {
  return loan.documents.length + loan.unreadable.length;
}

// DOC-003: a self-employed borrower (wageEarner false) documents income with tax returns instead, so only
// an explicit "employed", or an employer named without the flag, makes the borrower a wage earner.
function incomeDocumentationMissing(loan: LoanFile): RuleHit[] {
  const urla = documentsOf(loan, 'urla').find(({ fields }) =>
    fields.wageEarner ? fields.wageEarner.value : fields.employer !== undefined,
  );
  if (!urla || documentsOf(loan, 'pay_stub').length > 0 || documentsOf(loan, 'w2').length > 0) return [];
  const { employer, wageEarner } = urla.fields;
  const shows = employer ? `wage income from employer ${employer.value}` : 'the borrower as employed';
  return [
    {
      summary: `${cite(urla, wageEarner ?? employer)} shows ${shows}; the package holds no pay stub and no W-2.`,
      evidence: [
        ...(wageEarner
          ? [evidenceOf(urla, 'wage_earner', wageEarner, wageEarner.value ? 'employed' : 'self-employed')]
          : []),
        ...(employer ? [evidenceOf(urla, 'employer', employer, employer.value)] : []),
      ],
    },
  ];
}

interface StatementPeriod {
  doc: DocumentOf<'bank_statement'>;
  start?: IsoDate;
  end?: IsoDate;
  /** Worked out once per statement, not per pair: a split PDF can make thousands of statements. */
  bank: string | undefined;
  startDay: number | undefined;
  endDay: number | undefined;
}

// DOC-004: with no statement, or only one, the shortfall is itself the defect; with two or more of which
// one has no legible period, they may well be consecutive and the rule does not guess.
function bankStatementsIncomplete(loan: LoanFile): RuleHit[] {
  const statements = documentsOf(loan, 'bank_statement');
  const periods: StatementPeriod[] = statements.map((doc) => {
    const [start, end] = [doc.fields.periodStart?.value, doc.fields.periodEnd?.value];
    const bank = doc.fields.bank ? organisationKey(doc.fields.bank.value) : undefined;
    return {
      doc,
      start,
      end,
      bank,
      startDay: start ? dayNumber(start) : undefined,
      endDay: end ? dayNumber(end) : undefined,
    };
  });
  if (periods.some((a) => periods.some((b) => a !== b && follows(a, b)))) return [];
  const [only] = periods;
  if (!only)
    return [{ summary: 'The package holds no bank statement; two consecutive monthly statements are needed.' }];
  const evidence = periods.flatMap(({ doc }) => {
    const { periodStart, periodEnd } = doc.fields;
    if (!periodStart && !periodEnd) return [evidenceOf(doc, 'statement_period', undefined, null)];
    return [
      ...(periodStart ? [evidenceOf(doc, 'period_start', periodStart, periodStart.value)] : []),
      ...(periodEnd ? [evidenceOf(doc, 'period_end', periodEnd, periodEnd.value)] : []),
    ];
  });
  if (periods.length === 1) {
    return [
      {
        summary:
          `The package holds one bank statement, ${describePeriod(only)}; two consecutive ` +
          `monthly statements are needed.`,
        evidence,
      },
    ];
  }
  if (periods.some((p) => !p.start && !p.end)) return [];
  const listed = clausesOf(periods.map(describePeriod));
  return [
    { summary: `No two of the ${periods.length} bank statements cover consecutive months: ${listed}.`, evidence },
  ];
}

/**
 * `b` is the statement after `a`: of one bank (when both name it) and starting within a few days after `a`
 * ends; when one of those dates is missing, ending (or starting) in the next calendar month.
 */
function follows(a: StatementPeriod, b: StatementPeriod): boolean {
  if (a.bank !== undefined && b.bank !== undefined && a.bank !== b.bank) return false;
  if (a.endDay !== undefined && b.startDay !== undefined) {
    const gap = b.startDay - a.endDay;
    return gap >= 0 && gap <= MAX_STATEMENT_GAP_DAYS;
  }
  if (a.end && b.end) return monthIndex(b.end) - monthIndex(a.end) === 1;
  if (a.start && b.start) return monthIndex(b.start) - monthIndex(a.start) === 1;
  return false;
}

/** Days since 1970-01-01, so that a gap between two dates is a subtraction. */
function dayNumber(date: IsoDate): number {
  return daysBetween('1970-01-01' as IsoDate, date);
}

function monthIndex(date: IsoDate): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
}

function describePeriod({ doc, start, end }: StatementPeriod): string {
  const where = cite(doc, doc.fields.periodEnd ?? doc.fields.periodStart);
  if (start && end) return `${where} for ${start} to ${end}`;
  if (end) return `${where} for the period ending ${end}`;
  if (start) return `${where} for the period starting ${start}`;
  return `${where} with no legible period`;
}

// DOC-005: one finding per file, so that a Note and a Deed of Trust scanned into one PDF share one key.
function unsignedInstruments(loan: LoanFile): RuleHit[] {
  const unsigned = [...documentsOf(loan, 'note'), ...documentsOf(loan, 'security_instrument')].filter(
    (d) => d.fields.signed?.value === false,
  );
  return byFile(unsigned).map(([filename, docs]) => ({
    subject: filename,
    summary:
      docs.length === 1
        ? `The signature line of ${listOf(docs.map((d) => cite(d, d.fields.signed)))} appears unsigned.`
        : `The signature lines of ${listOf(docs.map((d) => cite(d, d.fields.signed)))} appear unsigned.`,
    evidence: docs.map((d) => evidenceOf(d, 'signature', d.fields.signed, null)),
  }));
}

// DOC-006: an OCR page without a confidence is one OCR could not score; it is not called illegible on
// that alone. Files that could not be read at all are DOC-009's ("could not be classified").
function illegiblePages(loan: LoanFile, { ocrConfidenceThreshold }: RuleContext): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const [filename, docs] of byFile(loan.documents)) {
    const pages = docs.flatMap((doc) =>
      doc.pages.flatMap((page) =>
        page.source === 'ocr' && page.confidence !== null && page.confidence < ocrConfidenceThreshold
          ? [{ doc, at: pageOf(page.number, page.file), confidence: page.confidence }]
          : [],
      ),
    );
    if (pages.length === 0) continue;
    // Rounded down, so that a confidence never reads as the threshold it fell short of.
    const confidences = pages.map((p) => String(Math.floor(p.confidence * 10) / 10));
    const plural = pages.length > 1;
    hits.push({
      subject: filename,
      summary:
        `${listOf(pages.map((p) => cite(p.doc, p.at)))} ${plural ? 'have' : 'has'} no text layer and ` +
        `OCR read ${plural ? 'them' : 'it'} ` +
        `at confidence ${listOf(confidences)}, below the threshold of ${ocrConfidenceThreshold}.`,
      evidence: pages.map((p, i) => evidenceOf(p.doc, 'ocr_confidence', p.at, confidences[i]!)),
    });
  }
  return hits;
}

// DOC-007: a page whose footer OCR could not read may be the "missing" one. Pages without a footer that
// sit between the numbered pages around a gap fill it first; only what they cannot fill is missing.
function missingPages(loan: LoanFile): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const [filename, docs] of byFile(loan.documents)) {
    const gaps = docs.flatMap((doc) => {
      const numberings = new Set(doc.pages.flatMap((p) => (p.footer ? [p.footer.of] : [])));
      return [...numberings].flatMap((of) => {
        const missing = missingIndexes(doc, of);
        if (missing.length === 0) return [];
        const pages =
          missing.length > 1 ? `pages ${listOf(missing.map(String))} of ${of} are` : `page ${missing[0]} of ${of} is`;
        // The footers read: the numbering the missing pages are missing from.
        const footers = doc.pages.flatMap((p) =>
          p.footer?.of === of
            ? [evidenceOf(doc, 'page_footer', pageOf(p.number, p.file), `Page ${p.footer.index} of ${of}`)]
            : [],
        );
        return [{ text: `${cite(doc)} is numbered "Page x of ${of}" but ${pages} missing`, footers }];
      });
    });
    if (gaps.length > 0)
      hits.push({
        subject: filename,
        summary: `${gaps.map((g) => g.text).join('; ')}.`,
        evidence: gaps.flatMap((g) => g.footers),
      });
  }
  return hits;
}

/** Indexes 1..of of one numbering (footers "of `of`") that no page of the document carries or can fill. */
function missingIndexes(doc: LoanDocument, of: number): number[] {
  // In reading order: pages joined from one image file each all number 1 in their files.
  const pages = doc.pages;
  const present = new Set(pages.flatMap((p) => (p.footer?.of === of ? [p.footer.index] : [])));
  const missing = new Set<number>();
  for (let index = 1; index <= of; index++) if (!present.has(index)) missing.add(index);
  // Walk runs of footerless pages with the numbered page before (index `after`) and after (`before`) them.
  let after = 0;
  let unnumbered = 0;
  const fill = (before: number) => {
    for (let index = after + 1; index < before && unnumbered > 0; index++) {
      if (missing.delete(index)) unnumbered--;
    }
    unnumbered = 0;
  };
  for (const page of pages) {
    if (!page.footer) unnumbered++;
    else if (page.footer.of === of) {
      fill(page.footer.index);
      after = page.footer.index;
    }
  }
  fill(of + 1);
  return [...missing];
}

interface DatedDocument {
  doc: LoanDocument;
  date: Located<IsoDate>;
  /** How the date reads in a summary: "paid", "for the period ending", "dated". */
  label: string;
  /** Its evidence field name. */
  field: string;
}

// DOC-008: every such document is judged on its own; without a closing date there is no age.
function staleDocuments(loan: LoanFile): RuleHit[] {
  const closing = consummationDate(loan);
  const cd = finalClosingDisclosure(loan);
  if (!closing || !cd) return [];
  const dated: DatedDocument[] = loan.documents.flatMap((doc): DatedDocument[] => {
    switch (doc.documentClass) {
      case 'pay_stub': {
        const { payDate, periodEnd } = doc.fields;
        if (payDate) return [{ doc, date: payDate, label: 'paid', field: 'pay_date' }];
        return periodEnd ? [{ doc, date: periodEnd, label: 'for the period ending', field: 'period_end' }] : [];
      }
      case 'bank_statement':
        return doc.fields.periodEnd
          ? [{ doc, date: doc.fields.periodEnd, label: 'for the period ending', field: 'period_end' }]
          : [];
      case 'credit_report':
        return doc.fields.reportDate
          ? [{ doc, date: doc.fields.reportDate, label: 'dated', field: 'report_date' }]
          : [];
      default:
        return [];
    }
  });
  const stale = dated
    .map((d) => ({ ...d, age: daysBetween(d.date.value, closing.value) }))
    .filter((d) => d.age > MAX_DOCUMENT_AGE_DAYS);
  return byFile(stale.map((s) => ({ ...s, filename: s.doc.filename }))).map(([filename, items]) => ({
    subject: filename,
    summary:
      `${listOf(
        items.map((s) => `${cite(s.doc, s.date)} ${s.label} ${s.date.value} is ` + `${s.age} days old`),
      )} at the closing date ` + `${closing.value} (${cite(cd, closing)}); the limit is ${MAX_DOCUMENT_AGE_DAYS} days.`,
    evidence: [
      ...items.map((s) => evidenceOf(s.doc, s.field, s.date, s.date.value)),
      evidenceOf(cd, 'closing_date', closing, closing.value),
    ],
  }));
}

// DOC-009: files that could not be read at all are listed here too, with the reason, since no class
// could be given to them; DOC-006 is about pages that were read, badly.
function unclassifiedDocuments(loan: LoanFile): RuleHit[] {
  const others = loan.documents.filter((d) => d.documentClass === 'other');
  const unclassified = [...new Set(others.map((d) => d.filename))];
  const unreadable = loan.unreadable.map((u) => `${u.filename} (could not be read: ${u.reason})`);
  const names = [...unclassified, ...unreadable];
  if (names.length === 0) return [];
  const shown = names.slice(0, LISTED_FILES).join(', ');
  const more = names.length > LISTED_FILES ? ` and ${names.length - LISTED_FILES} more` : '';
  const evidence = [
    ...others.map((d) => evidenceOf(d, 'document_class', undefined, null)),
    ...loan.unreadable.map((u) => ({ document: u.filename, page: 1, field: 'document_class', value: null })),
  ];
  return [{ summary: `${names.length} document(s) could not be classified: ${shown}${more}.`, evidence }];
}

/** Items grouped by file, in the order the files first appear. */
function byFile<T extends { filename: string }>(items: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.filename, [...(groups.get(item.filename) ?? []), item]);
  return [...groups];
}
