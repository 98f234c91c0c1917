// The credit report (tri-merge or single-bureau): the date it was issued and the borrower it is about.
import type { CreditReportFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { labelled, plainText, withoutUndefined } from './labels.js';
import { findDate } from './values.js';

export function extractCreditReport(pages: readonly PageLayout[]): CreditReportFields {
  return withoutUndefined({
    reportDate: labelled(pages, /report date|date of report|date issued|date completed|completed/, findDate),
    // "Co-Borrower" never matches: labels are read from the start of a phrase.
    borrower: labelled(pages, /borrower(?: name)?|applicant(?: name)?|consumer(?: name)?/, plainText, {
      colonOnly: true,
    }),
  });
}
