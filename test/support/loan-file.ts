// Builds loan files for rule tests: documents with only the fields a test is about.
import { DEFAULT_RULE_CONTEXT, type Rule, type RuleCode, type RuleHit } from '../../src/qc/catalog.js';
import type { DocumentClass } from '../../src/qc/classify.js';
import type { DocumentOf, FieldsByClass, Located, LoanDocument, LoanFile, PageInfo } from '../../src/qc/fields.js';

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

/** The hits of a family's rules on a loan file, by code; codes without a hit are left out. */
export function hitsOf(rules: readonly Rule[], loan: LoanFile): Partial<Record<RuleCode, RuleHit[]>> {
  const all: Partial<Record<RuleCode, RuleHit[]>> = {};
  for (const rule of rules) {
    const hits = rule.check(loan, DEFAULT_RULE_CONTEXT);
    if (hits.length > 0) all[rule.code] = hits;
  }
  return all;
}
