// The typed values extraction produces and the rules read: money in integer cents, rates as decimals
// (3.875% is 0.03875), dates as ISO dates, each with the page it was printed on.
import type { DocumentClass } from './classify.js';

/** Integer cents. */
export type Cents = number;
/** A rate as a decimal fraction: 0.03875 for 3.875%. */
export type Rate = number;
/** `YYYY-MM-DD`. */
export type IsoDate = string;

/**
 * Where on its page a value was printed, in the coordinates of the reader that read it (layout.ts): PDF
 * user space for a text layer; for OCR, the rendered page (or the image) scaled to OCR_PAGE_WIDTH points
 * wide. Origin bottom-left, in points. The report cuts the page around it (src/report/evidence-pictures.ts).
 */
// A type alias, not an interface: findings hold it, and postgres.js stores them as JSON (finding.ts).
export type PrintedBox = {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  source: 'text_layer' | 'ocr';
  /**
   * OCR's positions are on the file's page turned upright by this many quarter turns clockwise
   * (orientation.ts), then by `turned` (radians, about its centre) to straighten it.
   */
  quarterTurns?: 1 | 2 | 3;
  turned?: number;
};

export interface Located<T> {
  value: T;
  /** 1-based page number within the uploaded file the value was printed on. */
  page: number;
  /** That file, when it is not the document's own (a form sent as one image per page: joinPageImages). */
  file?: string;
  /** Where on the page, when the reader knows (a value worked out from others has none). */
  box?: PrintedBox;
}

/** A fee line of a Loan Estimate or Closing Disclosure (sections A–H of the cost tables). */
export interface FeeLine {
  section: 'A' | 'B' | 'C' | 'E' | 'F' | 'G' | 'H';
  name: string;
  /** Borrower-paid amount (at closing plus before closing on a CD). */
  amount: Cents;
  page: number;
  /** As Located's `file`. */
  file?: string;
  /** As Located's `box`: the amount's cell. */
  box?: PrintedBox;
}

/** The loan terms a Loan Estimate and a Closing Disclosure both print (page 1, "Loan Terms" and header). */
export interface DisclosureTerms {
  dateIssued?: Located<IsoDate>;
  loanTermMonths?: Located<number>;
  purpose?: Located<string>;
  product?: Located<string>;
  loanType?: Located<string>;
  loanId?: Located<string>;
  loanAmount?: Located<Cents>;
  interestRate?: Located<Rate>;
  monthlyPrincipalAndInterest?: Located<Cents>;
  prepaymentPenalty?: Located<boolean>;
  /** "As high as $3,240": the largest prepayment penalty. */
  prepaymentPenaltyMax?: Located<Cents>;
  balloonPayment?: Located<boolean>;
  /** Monthly mortgage insurance of the first Projected Payments column (0 when "—"). */
  mortgageInsurance?: Located<Cents>;
  apr?: Located<Rate>;
  tip?: Located<Rate>;
  /** "If your payment is more than 15 days late, we will charge a late fee of 5% ..." */
  lateChargePercent?: Located<Rate>;
  lateChargeGraceDays?: Located<number>;
  lender?: Located<string>;
  /** Borrower (CD) or Applicants (LE), as printed: "Michael Jones and Mary Stone". */
  borrower?: Located<string>;
  /** Property address on one line: "456 Somewhere Ave, Anytown, ST 12345". */
  property?: Located<string>;
  fees: FeeLine[];
  /** Points (section A "% of Loan Amount (Points)"). */
  points?: Located<Cents>;
  /** Prepaid interest (section F). */
  prepaidInterest?: Located<Cents>;
  /** Lender credits as a positive number of cents. */
  lenderCredits?: Located<Cents>;
  /** Date the consumer signed "Confirm Receipt", when signed. */
  receivedDate?: Located<IsoDate>;
}

export interface ClosingDisclosureFields extends DisclosureTerms {
  closingDate?: Located<IsoDate>;
  disbursementDate?: Located<IsoDate>;
  closingCosts?: Located<Cents>;
  cashToClose?: Located<Cents>;
  /** D. TOTAL LOAN COSTS (Borrower-Paid). */
  totalLoanCosts?: Located<Cents>;
  totalOfPayments?: Located<Cents>;
  financeCharge?: Located<Cents>;
  amountFinanced?: Located<Cents>;
  /** "Increase exceeds legal limits by $200": the cure disclosed for a tolerance excess. */
  toleranceCure?: Located<Cents>;
}

export interface LoanEstimateFields extends DisclosureTerms {
  /** RATE LOCK: YES, until the date printed (or NO). */
  rateLocked?: Located<boolean>;
  rateLockUntil?: Located<IsoDate>;
  estimatedClosingCosts?: Located<Cents>;
  estimatedCashToClose?: Located<Cents>;
}

export interface NoteFields {
  principal?: Located<Cents>;
  interestRate?: Located<Rate>;
  monthlyPayment?: Located<Cents>;
  firstPaymentDate?: Located<IsoDate>;
  maturityDate?: Located<IsoDate>;
  borrower?: Located<string>;
  property?: Located<string>;
  lateChargePercent?: Located<Rate>;
  lateChargeGraceDays?: Located<number>;
  /** Years a prepayment penalty applies; 0 when the Note allows prepayment without charge. */
  prepaymentPenaltyYears?: Located<number>;
  /** False when a signature line is present but blank. */
  signed?: Located<boolean>;
}

export interface SecurityInstrumentFields {
  borrower?: Located<string>;
  property?: Located<string>;
  signed?: Located<boolean>;
}

export interface UrlaFields {
  applicationDate?: Located<IsoDate>;
  borrower?: Located<string>;
  /** The other borrowers a joint application names (Section 1a, "List Name(s) of Other Borrower(s)"). */
  otherBorrowers?: Located<string>[];
  /** The borrower's current address, one line ("2217 Larkspur Lane, Suite 2, Boise, ID 83702"). */
  currentAddress?: Located<string>;
  /** The current employer's name (the first current employment's). */
  employer?: Located<string>;
  /** Base monthly income from the current employment. */
  monthlyIncome?: Located<Cents>;
  /** Monthly income from the current employment, every component: its total, or their sum. */
  monthlyEmploymentIncome?: Located<Cents>;
  /** True when the borrower is employed (wage earner), false when self-employed or retired. */
  wageEarner?: Located<boolean>;
  /** Each employment the application lists (Sections 1b–1d on the official form). */
  employments?: UrlaEmployment[];
  /**
   * Where the application contradicts itself (the official form): a section marked "Does not apply" that
   * is filled in, or a total that is not the sum of its components. The filled values are the ones read.
   */
  contradictions?: UrlaContradiction[];
  /** Income from other sources (Section 1e): alimony, retirement, rental … a month. */
  otherIncome?: { source?: string; monthly: Located<Cents> }[];
  /** Accounts and other assets (Sections 2a and 2b). */
  assets?: { kind?: string; institution?: string; value: Located<Cents> }[];
  /** Liabilities and other expenses (Sections 2c and 2d). */
  liabilities?: {
    kind?: string;
    creditor?: string;
    unpaidBalance?: Located<Cents>;
    monthly?: Located<Cents>;
    paidOff?: boolean;
  }[];
}

/** One value of the official form, named as the form names it ("Employer", "Base"), where it stands. */
export interface UrlaFormValue {
  label: string;
  at: Located<string | Cents | boolean>;
}

/** One place where the application contradicts itself: what one side says, and what the other does. */
export interface UrlaContradiction {
  /** The form's section: "1b", "2a". */
  section: string;
  kind: 'not_applicable_but_filled' | 'total_not_sum';
  /** The box checked ("Does not apply"), or the total stated. */
  says: UrlaFormValue;
  /** The values filled in despite it, or the components the total should be the sum of. */
  yet: UrlaFormValue[];
}

/** Monthly income components of an employment, as Form 1003 lists them. */
export const INCOME_COMPONENTS = ['base', 'overtime', 'bonus', 'commission', 'military', 'other'] as const;
export type IncomeComponent = (typeof INCOME_COMPONENTS)[number];

/** One employment of a loan application. */
export interface UrlaEmployment {
  /** Current (Sections 1b, 1c) or previous (1d). */
  current: boolean;
  employer?: Located<string>;
  position?: Located<string>;
  startDate?: Located<IsoDate>;
  endDate?: Located<IsoDate>;
  /** The box "Check if you are the Business Owner or Self-Employed". */
  selfEmployed?: Located<boolean>;
  /** The owner's share: under 25%, or 25% or more. */
  ownershipShare?: Located<'under_25_percent' | '25_percent_or_more'>;
  /** Monthly income by component (current employments). */
  income: Partial<Record<IncomeComponent, Located<Cents>>>;
  /** The employment's monthly total: the form's total, or the components' sum when it is blank or zero. */
  monthlyTotal?: Located<Cents>;
}

export interface PayStubFields {
  payDate?: Located<IsoDate>;
  periodEnd?: Located<IsoDate>;
  employer?: Located<string>;
  employee?: Located<string>;
  grossPay?: Located<Cents>;
  ytdGross?: Located<Cents>;
  /** Pay periods a year: 52 weekly, 26 biweekly, 24 semi-monthly, 12 monthly. */
  periodsPerYear?: Located<number>;
}

export interface W2Fields {
  taxYear?: Located<number>;
  employer?: Located<string>;
  employee?: Located<string>;
  /** Box 1, wages, tips, other compensation. */
  wages?: Located<Cents>;
  /** Box 5, Medicare wages and tips: gross pay before the retirement deferrals box 1 leaves out. */
  medicareWages?: Located<Cents>;
}

export interface BankStatementFields {
  bank?: Located<string>;
  periodStart?: Located<IsoDate>;
  periodEnd?: Located<IsoDate>;
}

export interface CreditReportFields {
  reportDate?: Located<IsoDate>;
  borrower?: Located<string>;
}

export interface AppraisalFields {
  property?: Located<string>;
  value?: Located<Cents>;
  effectiveDate?: Located<IsoDate>;
}

/** A stated-income (or employment) affidavit: what the borrower swears to, never proof of it. */
export interface AffidavitFields {
  affiant?: Located<string>;
  employer?: Located<string>;
  /** Gross monthly income stated; an annual figure is divided by 12. */
  statedMonthlyIncome?: Located<Cents>;
}

/** HUD-1 / ALTA settlement statement (a pre-2015 or non-TRID closing). */
export interface SettlementStatementFields {
  loanAmount?: Located<Cents>;
  settlementDate?: Located<IsoDate>;
}

export interface FieldsByClass {
  closing_disclosure: ClosingDisclosureFields;
  loan_estimate: LoanEstimateFields;
  note: NoteFields;
  security_instrument: SecurityInstrumentFields;
  urla: UrlaFields;
  appraisal: AppraisalFields;
  pay_stub: PayStubFields;
  w2: W2Fields;
  bank_statement: BankStatementFields;
  credit_report: CreditReportFields;
  settlement_statement: SettlementStatementFields;
  tax_return: Record<string, never>;
  affidavit: AffidavitFields;
  service_provider_list: Record<string, never>;
  other: Record<string, never>;
}

/** What a page told the reader beyond its words. */
export interface PageInfo {
  /** Page number within the uploaded file. */
  number: number;
  /** That file, when it is not the document's own (as Located's `file`). */
  file?: string;
  source: 'text_layer' | 'ocr';
  confidence: number | null;
  /** "Page 2 of 5" / "PAGE 2 OF 5" footers: the document's own numbering. */
  footer?: { index: number; of: number };
}

/** One logical document: a whole file, or a run of pages of a multi-document PDF. */
export type LoanDocument = {
  [C in DocumentClass]: {
    documentClass: C;
    /** The uploaded file's name, as the integrator sent it. */
    filename: string;
    pages: PageInfo[];
    fields: FieldsByClass[C];
  };
}[DocumentClass];

export type DocumentOf<C extends DocumentClass> = Extract<LoanDocument, { documentClass: C }>;

/** A file that could not be read at all, or a page OCR could not make out (DOC-006, DOC-009). */
export interface UnreadableFile {
  filename: string;
  reason: string;
}

/** Everything the rules see: the package's logical documents. */
export interface LoanFile {
  documents: LoanDocument[];
  unreadable: UnreadableFile[];
}
