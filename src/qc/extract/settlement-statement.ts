// The settlement statement (HUD-1, ALTA): the loan amount (HUD-1 line 202 "Principal amount of new
// loan(s)") and the settlement date (box I). A blank form gives neither.
import type { SettlementStatementFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { amount, labelled, withoutUndefined } from './labels.js';
import { findDate } from './values.js';

export function extractSettlementStatement(pages: readonly PageLayout[]): SettlementStatementFields {
  return withoutUndefined({
    loanAmount: labelled(pages, /(?:202\.?\s+)?principal amount of new loan\(?s?\)?|loan amount/, amount),
    settlementDate: labelled(pages, /(?:i\.\s+)?settlement date/, findDate),
  });
}
