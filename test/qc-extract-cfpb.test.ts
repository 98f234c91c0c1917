// Extraction on the real CFPB model-form samples (RULES.md, Corpus): every listed field comes out exactly
// as printed, on the page it is printed on (file pages: each sample starts with a cover sheet).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { analyseFile } from '../src/qc/logical-documents.js';
import type { LoanDocument } from '../src/qc/fields.js';

const corpus = new URL('./corpus/cfpb/', import.meta.url);

async function onlyDocument(file: string): Promise<LoanDocument> {
  const { documents, unreadable } = await analyseFile(file, 'application/pdf', readFileSync(new URL(file, corpus)));
  if (unreadable !== null || documents.length !== 1) throw new Error(`${file}: ${unreadable ?? `${documents.length} documents`}`);
  return documents[0]!;
}

/** Field → [value, page] as printed. */
type Expected = Record<string, [unknown, number]>;

function fieldsOf(doc: LoanDocument, names: string[]): Expected {
  const fields = doc.fields as Record<string, { value: unknown; page: number } | undefined>;
  return Object.fromEntries(names.map((n) => [n, fields[n] ? [fields[n].value, fields[n].page] : ['(missing)', 0]]));
}

const H25B: Expected = {
  dateIssued: ['2013-04-15', 2],
  closingDate: ['2013-04-15', 2],
  disbursementDate: ['2013-04-15', 2],
  loanTermMonths: [360, 2],
  purpose: ['Purchase', 2],
  product: ['Fixed Rate', 2],
  loanType: ['Conventional', 2],
  loanId: ['123456789', 2],
  loanAmount: [16_200_000, 2],
  interestRate: [0.03875, 2],
  monthlyPrincipalAndInterest: [76_178, 2],
  prepaymentPenalty: [true, 2],
  prepaymentPenaltyMax: [324_000, 2],
  balloonPayment: [false, 2],
  mortgageInsurance: [8_235, 2],
  closingCosts: [971_210, 2],
  cashToClose: [1_414_726, 2],
  totalLoanCosts: [469_405, 3],
  totalOfPayments: [28_580_336, 6],
  financeCharge: [11_883_027, 6],
  amountFinanced: [16_200_000, 6],
  apr: [0.04174, 6],
  tip: [0.6946, 6],
  lender: ['Ficus Bank', 2],
  borrower: ['Michael Jones and Mary Stone', 2],
  property: ['456 Somewhere Ave, Anytown, ST 12345', 2],
  lateChargeGraceDays: [15, 5],
  lateChargePercent: [0.05, 5],
  points: [40_500, 3],
  prepaidInterest: [27_904, 3],
};

const H24B: Expected = {
  dateIssued: ['2013-02-15', 2],
  borrower: ['Michael Jones and Mary Stone', 2],
  property: ['456 Somewhere Avenue, Anytown, ST 12345', 2],
  loanTermMonths: [360, 2],
  purpose: ['Purchase', 2],
  product: ['Fixed Rate', 2],
  loanType: ['Conventional', 2],
  loanId: ['123456789', 2],
  rateLocked: [true, 2],
  rateLockUntil: ['2013-04-16', 2],
  loanAmount: [16_200_000, 2],
  interestRate: [0.03875, 2],
  monthlyPrincipalAndInterest: [76_178, 2],
  prepaymentPenalty: [true, 2],
  prepaymentPenaltyMax: [324_000, 2],
  balloonPayment: [false, 2],
  mortgageInsurance: [8_200, 2],
  estimatedClosingCosts: [805_400, 2],
  estimatedCashToClose: [1_605_400, 2],
  apr: [0.04274, 4],
  tip: [0.6945, 4],
  lender: ['Ficus Bank', 4],
  lateChargeGraceDays: [15, 4],
  lateChargePercent: [0.05, 4],
  points: [40_500, 3],
  prepaidInterest: [26_200, 3],
};

const H24C: Expected = {
  ...H24B,
  property: ['456 Somewhere Avenue, Anytown, ST 12345', 2],
  product: ['5 Year Interest Only, 5/3 Adjustable Rate', 2],
  loanAmount: [21_100_000, 2],
  interestRate: [0.04, 2],
  monthlyPrincipalAndInterest: [70_333, 2],
  prepaymentPenalty: [false, 2],
  mortgageInsurance: [10_900, 2],
  estimatedClosingCosts: [879_100, 2],
  estimatedCashToClose: [2_779_100, 2],
  apr: [0.04617, 4],
  tip: [0.8118, 4],
  points: [211_000, 3],
  prepaidInterest: [35_200, 3],
};
delete (H24C as Partial<Expected>).prepaymentPenaltyMax;

// The H-25(F) excerpt prints the Calculating Cash to Close table (Loan Estimate and Final columns) and
// the closing-cost totals; the final column is the Closing Disclosure's figure.
const H25F: Expected = {
  loanAmount: [15_000_000, 2],
  cashToClose: [2_967_743, 2],
  closingCosts: [597_757, 2],
  lenderCredits: [50_000, 2],
  toleranceCure: [20_000, 2],
};

for (const [file, cls, expected] of [
  ['cd_sample_fixed_rate_h25b.pdf', 'closing_disclosure', H25B],
  ['le_sample_fixed_rate_h24b.pdf', 'loan_estimate', H24B],
  ['le_sample_arm_interest_only_h24c.pdf', 'loan_estimate', H24C],
  ['cd_sample_refi_excess_cost_h25f1.pdf', 'closing_disclosure', H25F],
] as const) {
  test(`${file}: one ${cls} whose fields read exactly as printed`, async (t) => {
    const doc = await onlyDocument(file);
    t.is(doc.documentClass, cls);
    t.deepEqual(fieldsOf(doc, Object.keys(expected)), expected);
  });
}

test('the H-24(B) Loan Estimate hides clipped runs ("Purchase ce", a 19-digit loan ID) that are not printed', async (t) => {
  const doc = await onlyDocument('le_sample_fixed_rate_h24b.pdf');
  const fields = doc.fields as Record<string, { value: unknown } | undefined>;
  t.is(fields.purpose?.value, 'Purchase');
  t.is(fields.loanId?.value, '123456789');
});

test('the H-25(B) cost tables give each borrower-paid fee line, before-closing amounts included', async (t) => {
  const doc = await onlyDocument('cd_sample_fixed_rate_h25b.pdf');
  if (doc.documentClass !== 'closing_disclosure') return t.fail();
  const fees = doc.fields.fees.map((f) => `${f.section} ${f.name} ${f.amount}`);
  t.true(fees.includes('A Underwriting Fee 109700'));
  t.true(fees.includes('B Credit Report Fee 2980'), 'paid before closing by the borrower');
  t.false(fees.some((f) => f.includes('Appraisal Fee')), 'paid by others, not by the borrower');
  t.false(fees.some((f) => f.includes('Transfer Tax')), 'seller-paid');
  const sections = (s: string) => doc.fields.fees.filter((f) => f.section === s).reduce((sum, f) => sum + f.amount, 0);
  // The printed section totals: A $1,802.00, B $236.55, C $2,655.50 (D = $4,694.05).
  t.deepEqual([sections('A'), sections('B'), sections('C')], [180_200, 23_655, 265_550]);
});

test('footers give each page its place in the form: pages 1–5 of 5 after the cover sheet', async (t) => {
  const doc = await onlyDocument('cd_sample_fixed_rate_h25b.pdf');
  t.deepEqual(
    doc.pages.map((p) => p.footer?.index ?? null),
    [null, 1, 2, 3, 4, 5],
  );
});
