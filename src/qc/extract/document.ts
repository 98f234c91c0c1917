// Field extraction by document class: each class has its own reader of its form's labels.
import type { DocumentClass } from '../classify.js';
import type { FieldsByClass } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import type { FormField } from '../reading/pdf-text.js';
import { extractAppraisal } from './appraisal.js';
import { extractBankStatement } from './bank-statement.js';
import { extractClosingDisclosure } from './closing-disclosure.js';
import { extractCreditReport } from './credit-report.js';
import { extractLoanEstimate } from './loan-estimate.js';
import { extractNote } from './note.js';
import { extractUrla } from './urla.js';
import { extractPayStub } from './pay-stub.js';
import { extractSecurityInstrument } from './security-instrument.js';
import { extractW2 } from './w2.js';
import { extractAffidavit } from './affidavit.js';
import { extractSettlementStatement } from './settlement-statement.js';

type Extractors = {
  [C in DocumentClass]: (pages: readonly PageLayout[], formFields: readonly FormField[]) => FieldsByClass[C];
};

const EXTRACTORS: Extractors = {
  closing_disclosure: (pages) => extractClosingDisclosure(pages),
  loan_estimate: (pages) => extractLoanEstimate(pages),
  note: (pages) => extractNote(pages),
  security_instrument: (pages) => extractSecurityInstrument(pages),
  urla: (pages, formFields) => extractUrla(pages, formFields),
  appraisal: (pages) => extractAppraisal(pages),
  pay_stub: (pages) => extractPayStub(pages),
  w2: (pages) => extractW2(pages),
  bank_statement: (pages) => extractBankStatement(pages),
  credit_report: (pages) => extractCreditReport(pages),
  settlement_statement: (pages) => extractSettlementStatement(pages),
  tax_return: () => ({}),
  affidavit: (pages) => extractAffidavit(pages),
  service_provider_list: () => ({}),
  other: () => ({}),
};

export function extractFields<C extends DocumentClass>(
  cls: C,
  pages: readonly PageLayout[],
  formFields: readonly FormField[],
): FieldsByClass[C] {
  return (EXTRACTORS[cls] as Extractors[C])(pages, formFields);
}
