// TRD-001..TRD-005 and TRD-009: when the Loan Estimates and Closing Disclosures were issued and received,
// counted in Regulation Z business days against the application date and consummation.
import type { Rule, RuleHit } from '../catalog.js';
import { addBusinessDays, businessDaysBetween } from '../business-days.js';
import type { DocumentOf, IsoDate, Located, LoanFile } from '../fields.js';
import { aprTolerance } from './apr.js';
import type { Evidence } from '../finding.js';
import {
  byDateIssued,
  cite,
  consummationDate,
  documentsOf,
  evidenceOf,
  finalClosingDisclosure,
  formatRate,
} from './evidence.js';

type Disclosure = DocumentOf<'closing_disclosure' | 'loan_estimate'>;

/** 1026.19(e)(1)(iii)(A): the Loan Estimate within 3 general business days after application. */
const LOAN_ESTIMATE_DAYS = 3;
/** 1026.19(e)(1)(iii)(B): the Loan Estimate at least 7 specific business days before consummation. */
const LOAN_ESTIMATE_WAIT = 7;
/** 1026.19(e)(4)(ii): a revised Loan Estimate received at least 4 specific business days before consummation. */
const REVISED_ESTIMATE_WAIT = 4;
/** 1026.19(f)(1)(ii) and (f)(2)(ii): the Closing Disclosure received at least 3 specific business days before. */
const CLOSING_DISCLOSURE_WAIT = 3;
/** 1026.19(e)(1)(iv), (f)(1)(iii): a mailed disclosure is received 3 business days after it was sent. */
const MAILBOX_DAYS = 3;

const days = (n: number, kind: string) => `${n} ${kind} business day${n === 1 ? '' : 's'}`;

interface Receipt {
  date: IsoDate;
  /** "signed 2025-07-07" or "issued 2025-07-03 + 3 business days, mailbox rule". */
  how: string;
  at: Located<IsoDate>;
  /** The date read (the signed receipt date, else the issue date). */
  evidence: Evidence;
}

/**
 * When the consumer received a disclosure: the signed "Confirm Receipt" date, else the issue date plus
 * the mailbox rule's 3 specific business days (nothing in the package proves earlier delivery).
 */
function receiptOf(doc: Disclosure): Receipt | undefined {
  const { receivedDate, dateIssued } = doc.fields;
  if (receivedDate) {
    return {
      date: receivedDate.value,
      how: 'signed receipt',
      at: receivedDate,
      evidence: evidenceOf(doc, 'received_date', receivedDate, receivedDate.value),
    };
  }
  if (!dateIssued) return undefined;
  return {
    date: addBusinessDays(dateIssued.value, MAILBOX_DAYS, 'specific'),
    how: `issued ${dateIssued.value}, mailbox rule of ${MAILBOX_DAYS} specific business days`,
    at: dateIssued,
    evidence: issueDateOf(doc, dateIssued),
  };
}

function issueDateOf(doc: Disclosure, at: Located<IsoDate>): Evidence {
  return evidenceOf(doc, 'date_issued', at, at.value);
}

/** Disclosures that carry an issue date, oldest first. */
function withIssueDate<D extends Disclosure>(docs: readonly D[]): (D & { fields: { dateIssued: Located<IsoDate> } })[] {
  return byDateIssued(docs).filter(
    (d): d is D & { fields: { dateIssued: Located<IsoDate> } } => d.fields.dateIssued !== undefined,
  );
}

interface Consummation {
  date: IsoDate;
  /** "consummation on 2025-07-11 (Closing Date of Closing Disclosure (cd.pdf, p.1))". */
  text: string;
  evidence: Evidence;
}

/** The consummation date, where it was read. */
function consummation(loan: LoanFile): Consummation | undefined {
  const cd = finalClosingDisclosure(loan);
  const closing = consummationDate(loan);
  if (!cd || !closing) return undefined;
  return {
    date: closing.value,
    text: `consummation on ${closing.value} (Closing Date of ${cite(cd, closing)})`,
    evidence: evidenceOf(cd, 'closing_date', closing, closing.value),
  };
}

/** Specific business days from `date` to consummation, in words: "2 specific business days before …", "after …". */
function ahead(date: IsoDate, closing: Consummation): { days: number; text: string } {
  const n = businessDaysBetween(date, closing.date, 'specific');
  return {
    days: n,
    text: date > closing.date ? `after ${closing.text}` : `${days(n, 'specific')} before ${closing.text}`,
  };
}

/** A document's subject: its filename, with the issue date when several share the file. */
function subjectOf(doc: Disclosure, among: readonly Disclosure[]): string {
  const shared = among.filter((d) => d.filename === doc.filename).length > 1;
  return shared && doc.fields.dateIssued ? `${doc.filename}@${doc.fields.dateIssued.value}` : doc.filename;
}

// TRD-001. The initial Loan Estimate against the earliest application date: a URLA signed again at
// closing carries a later date, and the deadline runs from when the application was first taken.
function loanEstimateLate(loan: LoanFile): RuleHit[] {
  const [initial] = withIssueDate(documentsOf(loan, 'loan_estimate'));
  const application = documentsOf(loan, 'urla')
    .flatMap((u) => (u.fields.applicationDate ? [{ urla: u, at: u.fields.applicationDate }] : []))
    .sort((a, b) => a.at.value.localeCompare(b.at.value))[0];
  if (!initial || !application) return [];
  const issuedOn = initial.fields.dateIssued.value;
  const elapsed = businessDaysBetween(application.at.value, issuedOn, 'general');
  if (elapsed <= LOAN_ESTIMATE_DAYS) return [];
  return [
    {
      summary:
        `${cite(initial, initial.fields.dateIssued)} was issued ${issuedOn}, ` +
        `${days(elapsed, 'general')} after the application date ` +
        `${application.at.value} on ${cite(application.urla, application.at)}; it was due by ` +
        `${addBusinessDays(application.at.value, LOAN_ESTIMATE_DAYS, 'general')} ` +
        `(${days(LOAN_ESTIMATE_DAYS, 'general')}).`,
      evidence: [
        issueDateOf(initial, initial.fields.dateIssued),
        evidenceOf(application.urla, 'application_date', application.at, application.at.value),
      ],
    },
  ];
}

// TRD-002. The waiting period runs from the first Closing Disclosure the consumer received: later
// corrected CDs only start a new one in the cases of TRD-005.
function closingDisclosureLate(loan: LoanFile): RuleHit[] {
  const closing = consummation(loan);
  if (!closing) return [];
  const first = documentsOf(loan, 'closing_disclosure')
    .flatMap((cd) => {
      const receipt = receiptOf(cd);
      return receipt ? [{ cd, receipt }] : [];
    })
    .sort((a, b) => a.receipt.date.localeCompare(b.receipt.date))[0];
  if (!first) return [];
  const before = ahead(first.receipt.date, closing);
  if (before.days >= CLOSING_DISCLOSURE_WAIT) return [];
  return [
    {
      summary:
        `${cite(first.cd, first.receipt.at)} was received ${first.receipt.date} ` +
        `(${first.receipt.how}), ${before.text}; ` +
        `at least ${CLOSING_DISCLOSURE_WAIT} are required (earliest consummation ` +
        `${addBusinessDays(first.receipt.date, CLOSING_DISCLOSURE_WAIT, 'specific')}).`,
      evidence: [first.receipt.evidence, closing.evidence],
    },
  ];
}

// TRD-003. "Delivered or placed in the mail not later than the seventh business day before consummation":
// the issue date, no mailbox rule.
function loanEstimateWait(loan: LoanFile): RuleHit[] {
  const closing = consummation(loan);
  const [initial] = withIssueDate(documentsOf(loan, 'loan_estimate'));
  if (!closing || !initial) return [];
  const issued = initial.fields.dateIssued.value;
  const before = ahead(issued, closing);
  if (before.days >= LOAN_ESTIMATE_WAIT) return [];
  return [
    {
      summary:
        `${cite(initial, initial.fields.dateIssued)}, the initial Loan Estimate, was issued ` +
        `${issued}, ${before.text}; at least ${LOAN_ESTIMATE_WAIT} are required (earliest consummation ` +
        `${addBusinessDays(issued, LOAN_ESTIMATE_WAIT, 'specific')}).`,
      evidence: [issueDateOf(initial, initial.fields.dateIssued), closing.evidence],
    },
  ];
}

// TRD-004. Every Loan Estimate after the first is a revised one. It must be received 4 specific business
// days before consummation, and it may not be provided on or after the day the first Closing Disclosure
// is, nor received on or after the day that CD is received (1026.19(e)(4)(ii)).
function revisedLoanEstimateLate(loan: LoanFile): RuleHit[] {
  const closing = consummation(loan);
  const estimates = withIssueDate(documentsOf(loan, 'loan_estimate'));
  const [firstCd] = withIssueDate(documentsOf(loan, 'closing_disclosure'));
  const firstCdReceipt = firstCd && receiptOf(firstCd);
  const hits: RuleHit[] = [];
  for (const le of estimates.slice(1)) {
    const receipt = receiptOf(le);
    if (!receipt) continue;
    const reasons: string[] = [];
    const evidence: Evidence[] = [receipt.evidence];
    if (closing) {
      const before = ahead(receipt.date, closing);
      if (before.days < REVISED_ESTIMATE_WAIT) {
        reasons.push(`${before.text}, fewer than the ${REVISED_ESTIMATE_WAIT} required`);
        evidence.push(closing.evidence);
      }
    }
    if (firstCd && firstCdReceipt) {
      const leIssued = le.fields.dateIssued.value;
      const cdIssued = firstCd.fields.dateIssued.value;
      if (leIssued >= cdIssued || receipt.date >= firstCdReceipt.date) {
        reasons.push(
          `not before the first ${cite(firstCd, firstCd.fields.dateIssued)}, issued ${cdIssued} and ` +
            `received ${firstCdReceipt.date}`,
        );
        evidence.push(issueDateOf(firstCd, firstCd.fields.dateIssued), firstCdReceipt.evidence);
      }
    }
    if (reasons.length === 0) continue;
    hits.push({
      subject: subjectOf(le, withIssueDate(estimates)),
      summary:
        `The revised ${cite(le, le.fields.dateIssued)} was received ${receipt.date} ` +
        `(${receipt.how}): ${reasons.join('; and ')}.`,
      evidence: uniqueEvidence(evidence),
    });
  }
  return hits;
}

/**
 * What makes a later Closing Disclosure need a new waiting period (1026.19(f)(2)(ii)), in words, with the
 * values compared.
 */
function waitTriggers(
  before: DocumentOf<'closing_disclosure'>,
  after: DocumentOf<'closing_disclosure'>,
): { text: string; evidence: Evidence[] }[] {
  const triggers: { text: string; evidence: Evidence[] }[] = [];
  const [a, b] = [before.fields, after.fields];
  // Only a rise counts: a lower APR from a lower finance charge stays accurate under 1026.22(a)(4).
  const tolerance = aprTolerance(after);
  if (a.apr && b.apr && b.apr.value - a.apr.value > tolerance + 1e-9) {
    triggers.push({
      text:
        `raises the APR from ${formatRate(a.apr.value)} (${cite(before, a.apr)}) to ` +
        `${formatRate(b.apr.value)}, beyond the ` +
        `${Number((tolerance * 100).toFixed(3))} tolerance`,
      evidence: [
        evidenceOf(before, 'apr', a.apr, formatRate(a.apr.value)),
        evidenceOf(after, 'apr', b.apr, formatRate(b.apr.value)),
      ],
    });
  }
  const product = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  if (a.product && b.product && product(a.product.value) !== product(b.product.value)) {
    triggers.push({
      text: `changes the product from "${a.product.value}" (${cite(before, a.product)}) to "${b.product.value}"`,
      evidence: [
        evidenceOf(before, 'product', a.product, a.product.value),
        evidenceOf(after, 'product', b.product, b.product.value),
      ],
    });
  }
  if (a.prepaymentPenalty?.value === false && b.prepaymentPenalty?.value === true) {
    triggers.push({
      text: `adds a prepayment penalty that ${cite(before, a.prepaymentPenalty)} did not have`,
      evidence: [
        evidenceOf(before, 'prepayment_penalty', a.prepaymentPenalty, 'no'),
        evidenceOf(after, 'prepayment_penalty', b.prepaymentPenalty, 'yes'),
      ],
    });
  }
  return triggers;
}

/** Evidence items once each, in order: two reasons may rest on one value. */
function uniqueEvidence(items: readonly Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return items.filter((e) => {
    const key = JSON.stringify([e.document, e.page, e.field, e.value]);
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

// TRD-005. Each CD is compared with the one that last started a waiting period (the first CD, or a later
// one that itself triggered a new wait), so small steps cannot add up unseen.
function newWaitNotObserved(loan: LoanFile): RuleHit[] {
  const closing = consummation(loan);
  const cds = withIssueDate(documentsOf(loan, 'closing_disclosure'));
  const [first] = cds;
  if (!closing || !first) return [];
  const hits: RuleHit[] = [];
  let baseline = first;
  for (const cd of cds.slice(1)) {
    const triggers = waitTriggers(baseline, cd);
    if (triggers.length === 0) continue;
    baseline = cd;
    const receipt = receiptOf(cd);
    if (!receipt) continue;
    const before = ahead(receipt.date, closing);
    if (before.days >= CLOSING_DISCLOSURE_WAIT) continue;
    hits.push({
      subject: subjectOf(cd, cds),
      summary:
        `${cite(cd, cd.fields.dateIssued)} ${triggers.map((t) => t.text).join(', ')}, and was ` +
        `received ${receipt.date} (${receipt.how}), ` +
        `${before.text}; a new ${CLOSING_DISCLOSURE_WAIT}-business-day waiting period was required.`,
      evidence: uniqueEvidence([...triggers.flatMap((t) => t.evidence), receipt.evidence, closing.evidence]),
    });
  }
  return hits;
}

// TRD-009. The last Loan Estimate is the one that counts: an earlier lock that expired was followed by a
// revised Loan Estimate, which is what RULES.md asks for.
function rateLockExpired(loan: LoanFile): RuleHit[] {
  const closing = consummation(loan);
  const last = withIssueDate(documentsOf(loan, 'loan_estimate')).at(-1);
  const until = last?.fields.rateLockUntil;
  if (!closing || !last || !until || last.fields.rateLocked?.value === false || until.value >= closing.date) return [];
  return [
    {
      summary:
        `${cite(last, until)}, the last Loan Estimate issued, locked the rate until ${until.value}; ` +
        `${closing.text} is later ` +
        `and no revised Loan Estimate followed.`,
      evidence: [evidenceOf(last, 'rate_lock_until', until, until.value), closing.evidence],
    },
  ];
}

export const rules: Rule[] = [
  { code: 'TRD-001', check: loanEstimateLate },
  { code: 'TRD-002', check: closingDisclosureLate },
  { code: 'TRD-003', check: loanEstimateWait },
  { code: 'TRD-004', check: revisedLoanEstimateLate },
  { code: 'TRD-005', check: newWaitNotObserved },
  { code: 'TRD-009', check: rateLockExpired },
];
