// Builds loan files for rule tests: documents with only the fields a test is about.
import {
  DEFAULT_RULE_CONTEXT,
  MAX_EVIDENCE,
  type Rule,
  type RuleCode,
  type RuleContext,
  type RuleHit,
} from '../../src/qc/catalog.js';
import type { DocumentClass } from '../../src/qc/classify.js';
import type {
  ClosingDisclosureFields,
  DocumentOf,
  FieldsByClass,
  Located,
  LoanDocument,
  LoanFile,
  PageInfo,
} from '../../src/qc/fields.js';

/** A value printed on `page` (1 unless given). */
export function at<T>(value: T, page = 1): Located<T> {
  return { value, page };
}

export function doc<C extends DocumentClass>(
  documentClass: C,
  fields: FieldsByClass[C],
  o: { filename?: string; pages?: PageInfo[] } = {},
): DocumentOf<C> {
  const pages = o.pages ?? [{ number: 1, source: 'text_layer', confidence: null }];
  return { documentClass, filename: o.filename ?? `${documentClass}.pdf`, pages, fields } as DocumentOf<C>;
}

export function loanFile(...documents: LoanDocument[]): LoanFile {
  return { documents, unreadable: [] };
}

/**
 * The hits of a family's rules on a loan file, by code (codes without a hit left out), as subject and
 * summary: what the family's tests assert. Evidence and regulations have tests of their own
 * (`evidenceOfHits`); here every hit's evidence is held to what holds for all: a file the summary names,
 * a page of it, a snake_case field, a value that is null or printed.
 */
export function hitsOf(rules: readonly Rule[], loan: LoanFile): Partial<Record<RuleCode, RuleHit[]>> {
  const all: Partial<Record<RuleCode, RuleHit[]>> = {};
  for (const [code, hits] of Object.entries(allHits(rules, loan)) as [RuleCode, RuleHit[]][])
    all[code] = asserted(code, hits);
  return all;
}

/** One rule's hits, as `hitsOf` gives them. */
export function ruleHits(
  rules: readonly Rule[],
  code: RuleCode,
  loan: LoanFile,
  context: RuleContext = DEFAULT_RULE_CONTEXT,
): RuleHit[] {
  const rule = rules.find((r) => r.code === code);
  if (!rule) throw new Error(`no rule ${code}`);
  return asserted(code, rule.check(loan, context));
}

function asserted(code: RuleCode, hits: readonly RuleHit[]): RuleHit[] {
  for (const hit of hits) checkEvidence(code, hit);
  return hits.map(({ evidence: _evidence, regulation: _regulation, ...hit }) => hit);
}

/** Each hit's evidence, by code, as `file p.N field=value` lines: how the evidence tests read. */
export function evidenceOfHits(rules: readonly Rule[], loan: LoanFile): Partial<Record<RuleCode, string[][]>> {
  const all: Partial<Record<RuleCode, string[][]>> = {};
  for (const [code, hits] of Object.entries(allHits(rules, loan)) as [RuleCode, RuleHit[]][]) {
    all[code] = hits.map((h) =>
      (h.evidence ?? []).map((e) => `${e.document} p.${e.page} ${e.field}=${e.value ?? 'null'}`),
    );
  }
  return all;
}

function allHits(rules: readonly Rule[], loan: LoanFile): Partial<Record<RuleCode, RuleHit[]>> {
  const all: Partial<Record<RuleCode, RuleHit[]>> = {};
  for (const rule of rules) {
    const hits = rule.check(loan, DEFAULT_RULE_CONTEXT);
    if (hits.length > 0) all[rule.code] = hits;
  }
  return all;
}

function checkEvidence(code: RuleCode, hit: RuleHit): void {
  // What a finding keeps of it (findingOf).
  for (const e of (hit.evidence ?? []).slice(0, MAX_EVIDENCE)) {
    const problem = !hit.summary.includes(e.document)
      ? `names ${e.document}, which its summary does not`
      : !Number.isInteger(e.page) || e.page < 1
        ? `has page ${e.page}`
        : !/^[a-z0-9_]+(\.[a-z0-9_]+)?$/.test(e.field)
          ? `has field "${e.field}"`
          : e.value === ''
            ? `has an empty value for ${e.field}`
            : undefined;
    if (problem) throw new Error(`${code}'s evidence ${JSON.stringify(e)} ${problem}: ${hit.summary}`);
  }
}

/**
 * The CFPB H-25(B) sample Closing Disclosure's figures, as the rule tests use them: page numbers in the
 * model form's own numbering (Loan Calculations on page 5, late payment on page 4), no fee lines.
 */
export const H25B_CLOSING_DISCLOSURE: ClosingDisclosureFields = {
  dateIssued: at('2013-04-15'),
  closingDate: at('2013-04-15'),
  loanTermMonths: at(360),
  purpose: at('Purchase'),
  product: at('Fixed Rate'),
  loanType: at('Conventional'),
  loanAmount: at(162_000_00),
  interestRate: at(0.03875),
  monthlyPrincipalAndInterest: at(761_78),
  prepaymentPenalty: at(true),
  prepaymentPenaltyMax: at(3_240_00),
  balloonPayment: at(false),
  mortgageInsurance: at(82_35),
  totalLoanCosts: at(4_694_05, 2),
  prepaidInterest: at(279_04, 2),
  points: at(405_00, 2),
  lateChargePercent: at(0.05, 4),
  lateChargeGraceDays: at(15, 4),
  totalOfPayments: at(285_803_36, 5),
  financeCharge: at(118_830_27, 5),
  amountFinanced: at(162_000_00, 5),
  apr: at(0.04174, 5),
  tip: at(0.6946, 5),
  fees: [],
};
