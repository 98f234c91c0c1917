// The consistency rules, DOC-010 to DOC-013 (RULES.md): between documents, one borrower, one property,
// and one set of loan terms on Closing Disclosures that no later date supersedes; within the loan
// application, no section that says two things at once.
import type { Rule, RuleHit } from '../catalog.js';
import type { ClosingDisclosureFields, DocumentOf, Located, LoanDocument, LoanFile, UrlaFormValue } from '../fields.js';
import { oneProperty, personKeys } from './names.js';
import type { Evidence } from '../finding.js';
import {
  cite,
  clausesOf,
  documentsOf,
  evidenceOf,
  finalClosingDisclosure,
  formatMoney,
  formatRate,
  listOf,
} from './evidence.js';

export const rules: Rule[] = [
  { code: 'DOC-010', check: (loan) => borrowerMismatch(loan) },
  { code: 'DOC-011', check: (loan) => propertyMismatch(loan) },
  { code: 'DOC-012', check: (loan) => conflictingClosingDisclosures(loan) },
  { code: 'DOC-013', check: (loan) => applicationContradictions(loan) },
];

interface Printed {
  doc: LoanDocument;
  at: Located<string>;
}

function printed(doc: LoanDocument, at: Located<string> | undefined): Printed[] {
  return at ? [{ doc, at }] : [];
}

// DOC-010: the CD lists every consumer ("Michael Jones and Mary Stone") while a Note or a URLA may name
// one of them, so the test is membership: each name on the Note and on every URLA must be one of the
// final CD's borrowers (or, without one, of the Note's). Names compare by first and last name only.
function borrowerMismatch(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  const notes = documentsOf(loan, 'note').flatMap((d) => printed(d, d.fields.borrower));
  const fromCd = cd ? printed(cd, cd.fields.borrower) : [];
  const urlas = documentsOf(loan, 'urla').flatMap((d) => printed(d, d.fields.borrower));
  const reference = fromCd[0] ?? notes[0];
  if (!reference) return [];
  const borrowers = new Set(personKeys(reference.at.value));
  const others = [...notes, ...urlas].filter((p) => p !== reference);
  const strangers = others.filter((p) => personKeys(p.at.value).some((key) => !borrowers.has(key)));
  if (others.length === 0 || strangers.length === 0) return [];
  const named = [...notes, ...fromCd, ...urlas].map(
    (p, i) => `${cite(p.doc, p.at)} names ${i === 0 ? 'borrower ' : ''}${p.at.value}`,
  );
  const odd = listOf(strangers.map((p) => `${p.at.value} (${cite(p.doc, p.at)})`));
  return [
    {
      summary: `${named.join('; ')}. Not among the borrowers ${cite(reference.doc, reference.at)} names: ${odd}.`,
      evidence: [...notes, ...fromCd, ...urlas].map((p) => evidenceOf(p.doc, 'borrower', p.at, p.at.value)),
    },
  ];
}

// DOC-011: the catalog's four documents; the Loan Estimate is left out (an estimate may precede a
// corrected address). Every pair must name one property after normalisation (names.ts).
function propertyMismatch(loan: LoanFile): RuleHit[] {
  const cd = finalClosingDisclosure(loan);
  const addresses = [
    ...documentsOf(loan, 'note').flatMap((d) => printed(d, d.fields.property)),
    ...documentsOf(loan, 'security_instrument').flatMap((d) => printed(d, d.fields.property)),
    ...(cd ? printed(cd, cd.fields.property) : []),
    ...documentsOf(loan, 'appraisal').flatMap((d) => printed(d, d.fields.property)),
  ];
  if (oneProperty(addresses.map((a) => a.at.value))) return [];
  const listed = addresses.map(
    (p, i) => `${cite(p.doc, p.at)} ${i === 0 ? 'gives the property as ' : ''}${p.at.value}`,
  );
  return [
    {
      summary: `The property address differs between documents: ${clausesOf(listed)}.`,
      evidence: addresses.map((p) => evidenceOf(p.doc, 'property_address', p.at, p.at.value)),
    },
  ];
}

type ClosingDisclosure = DocumentOf<'closing_disclosure'>;

/** A loan term both Closing Disclosures print: how it reads and when two values are one. */
interface Term {
  /** "Loan Amount $162,000.00 (p.1) against $165,000.00 (p.1)" when the two differ, with both values as evidence. */
  difference(a: ClosingDisclosure, b: ClosingDisclosure): { text: string; evidence: Evidence[] } | undefined;
}

function term<T>(
  label: string,
  field: string,
  read: (f: ClosingDisclosureFields) => Located<T> | undefined,
  show: (value: T) => string,
  same: (x: T, y: T) => boolean = (x, y) => x === y,
): Term {
  return {
    difference(a, b) {
      const [x, y] = [read(a.fields), read(b.fields)];
      if (!x || !y || same(x.value, y.value)) return undefined;
      return {
        text: `${label} ${show(x.value)} (p.${x.page}) against ${show(y.value)} (p.${y.page})`,
        evidence: [evidenceOf(a, field, x, show(x.value)), evidenceOf(b, field, y, show(y.value))],
      };
    },
  };
}

const sameWords = (x: string, y: string) =>
  x.trim().replace(/\s+/g, ' ').toLowerCase() === y.trim().replace(/\s+/g, ' ').toLowerCase();
const yesNo = (v: boolean) => (v ? 'yes' : 'no');

const LOAN_TERMS: Term[] = [
  term('Loan Amount', 'loan_amount', (f) => f.loanAmount, formatMoney),
  term(
    'Interest Rate',
    'interest_rate',
    (f) => f.interestRate,
    (r) => formatRate(r),
    (x, y) => Math.abs(x - y) < 1e-9,
  ),
  term(
    'Monthly Principal & Interest',
    'monthly_principal_and_interest',
    (f) => f.monthlyPrincipalAndInterest,
    formatMoney,
  ),
  term(
    'Loan Term',
    'loan_term',
    (f) => f.loanTermMonths,
    (m) => `${m} months`,
  ),
  term(
    'Product',
    'product',
    (f) => f.product,
    (s) => s,
    sameWords,
  ),
  term(
    'Loan Type',
    'loan_type',
    (f) => f.loanType,
    (s) => s,
    sameWords,
  ),
  term('Prepayment Penalty', 'prepayment_penalty', (f) => f.prepaymentPenalty, yesNo),
  term('Balloon Payment', 'balloon_payment', (f) => f.balloonPayment, yesNo),
];

// DOC-012: two CDs of one loan (the same Loan ID where both print one) conflict unless one is dated later
// than the other: the later supersedes. A CD without a date supersedes nothing, so a "corrected" copy that
// prints no date and disagrees is a finding, whatever the other's date. The first CD of each date is held
// against the others of its date and against every undated CD: one finding per date.
function conflictingClosingDisclosures(loan: LoanFile): RuleHit[] {
  const groups = new Map<string, DocumentOf<'closing_disclosure'>[]>();
  for (const cd of documentsOf(loan, 'closing_disclosure')) {
    const issued = cd.fields.dateIssued?.value ?? UNDATED;
    groups.set(issued, [...(groups.get(issued) ?? []), cd]);
  }
  const undated = groups.get(UNDATED) ?? [];
  const hits: RuleHit[] = [];
  for (const [issued, [first, ...rest]] of groups) {
    if (!first) continue;
    const rivals = issued === UNDATED ? rest : [...rest, ...undated];
    const conflicts = rivals.flatMap((other) => {
      if (!sameLoan(first.fields, other.fields)) return [];
      const differences = LOAN_TERMS.flatMap((t) => t.difference(first, other) ?? []);
      const named = issued !== UNDATED && !other.fields.dateIssued ? `${cite(other)}, undated,` : cite(other);
      const text = `${cite(first)} and ${named} disagree on ${listOf(differences.map((d) => d.text))}`;
      return differences.length > 0 ? [{ other, text, evidence: differences.flatMap((d) => d.evidence) }] : [];
    });
    if (conflicts.length === 0) continue;
    const sameDay = conflicts.filter((c) => c.other.fields.dateIssued).length + 1;
    const count = conflicts.length + 1;
    const when =
      issued === UNDATED
        ? count === 2
          ? 'Neither Closing Disclosure is dated'
          : `None of ${count} Closing Disclosures is dated`
        : sameDay === 1
          ? `A Closing Disclosure dated ${issued} and ` +
            `${count === 2 ? 'an undated one' : `${count - 1} undated ones`}: neither is dated later`
          : `${sameDay === 2 ? 'Both' : sameDay} Closing Disclosures are dated ` +
            `${issued}${sameDay < count ? ' (and undated ones conflict)' : ''}`;
    const dates = [first, ...conflicts.map((c) => c.other)].flatMap((cd) =>
      cd.fields.dateIssued ? [evidenceOf(cd, 'date_issued', cd.fields.dateIssued, cd.fields.dateIssued.value)] : [],
    );
    hits.push({
      subject: issued,
      summary: `${when}: ${clausesOf(conflicts.map((c) => c.text))}.`,
      evidence: [...dates, ...conflicts.flatMap((c) => c.evidence)],
    });
  }
  return hits;
}

const UNDATED = 'undated';

/** Two CDs are of one loan unless both print a Loan ID and the IDs differ. */
function sameLoan(a: ClosingDisclosureFields, b: ClosingDisclosureFields): boolean {
  return !a.loanId || !b.loanId || a.loanId.value === b.loanId.value;
}

/** What each section of the official URLA is, as a QC reviewer names it. */
const URLA_SECTIONS: Record<string, string> = {
  '1b': 'Section 1b (current employment)',
  '1c': 'Section 1c (additional employment)',
  '1d': 'Section 1d (previous employment)',
  '1e': 'Section 1e (income from other sources)',
  '2a': 'Section 2a (bank, retirement and other accounts)',
  '2b': 'Section 2b (other assets and credits)',
  '2c': 'Section 2c (liabilities)',
  '2d': 'Section 2d (other liabilities and expenses)',
};

/** A form value as a summary quotes it: an amount as money, a name as printed. */
function formValue({ label, at }: UrlaFormValue): string {
  if (typeof at.value === 'boolean') return `"${label}" ${at.value ? 'checked' : 'unchecked'}`;
  return `${label} ${typeof at.value === 'number' ? formatMoney(at.value) : at.value}`;
}

// DOC-013: the official URLA's own contradictions, one finding a section and kind, naming both sides: a
// section marked "Does not apply" that is filled in (the engine reads what it states, and says so here),
// or a stated total that is not the sum of its components.
function applicationContradictions(loan: LoanFile): RuleHit[] {
  return documentsOf(loan, 'urla').flatMap((urla) =>
    (urla.fields.contradictions ?? []).map((c) => {
      const section = URLA_SECTIONS[c.section] ?? `Section ${c.section}`;
      const yet = listOf(c.yet.map(formValue));
      const summary =
        c.kind === 'not_applicable_but_filled'
          ? `${cite(urla, c.says.at)} marks ${section} "Does not apply", yet fills in ${yet}; the review ` +
            'reads what the section states.'
          : `${cite(urla, c.says.at)} states ${section}'s total monthly income as ` +
            `${formatMoney(c.says.at.value as number)}, yet its components (${yet}) sum to ` +
            `${formatMoney(c.yet.reduce((sum, v) => sum + (v.at.value as number), 0))}.`;
      return {
        subject: `${urla.filename}:${c.section}:${c.kind}`,
        summary,
        evidence: [c.says, ...c.yet].map((v) =>
          evidenceOf(
            urla,
            `section_${c.section}_${v.label}`.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
            v.at,
            formValue(v),
          ),
        ),
      };
    }),
  );
}
