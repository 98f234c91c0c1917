// The documentation rules DOC-001 to DOC-009: which documents a package must hold, and when one is
// unsigned, illegible, incomplete, stale or of no known class.
import test from 'ava';
import { DEFAULT_RULE_CONTEXT, type RuleCode, type RuleContext } from '../../../../src/qc/catalog.js';
import type { LoanDocument, LoanFile, PageInfo } from '../../../../src/qc/fields.js';
import { rules } from '../../../../src/qc/rules/documentation.js';
import { DEFAULT_RULE_CONTEXT as CONTEXT } from '../../../../src/qc/catalog.js';
import { runRules } from '../../../../src/qc/rules/registry.js';
import { at, doc, evidenceOfHits, loanFile, ruleHits } from '../../../support/loan-file.js';

function check(code: RuleCode, loan: LoanFile, context: RuleContext = DEFAULT_RULE_CONTEXT) {
  return ruleHits(rules, code, loan, context);
}

const textPage = (number: number, footer?: PageInfo['footer']): PageInfo => ({
  number,
  source: 'text_layer',
  confidence: null,
  ...(footer ? { footer } : {}),
});
const ocrPage = (number: number, confidence: number | null): PageInfo => ({ number, source: 'ocr', confidence });

const cd = (closingDate = '2026-03-31') =>
  doc('closing_disclosure', { fees: [], closingDate: at(closingDate) }, { filename: 'cd.pdf' });

test('the module has one rule per code DOC-001 to DOC-009', (t) => {
  t.deepEqual(
    rules.map((r) => r.code),
    ['DOC-001', 'DOC-002', 'DOC-003', 'DOC-004', 'DOC-005', 'DOC-006', 'DOC-007', 'DOC-008', 'DOC-009'],
  );
});

// ---- DOC-001 / DOC-002 -------------------------------------------------------------------------------

test('DOC-001 fires once per missing core document, with the class as subject', (t) => {
  const hits = check('DOC-001', loanFile(cd(), doc('note', {})));
  t.deepEqual(
    hits.map((h) => h.subject),
    ['security_instrument', 'loan_estimate', 'urla'],
  );
  t.is(hits[2]?.summary, 'No loan application (URLA) was found among the 2 document(s) of the package.');
});

test('DOC-001 counts files that could not be read in the package size', (t) => {
  const loan: LoanFile = { ...loanFile(cd()), unreadable: [{ filename: 'broken.pdf', reason: 'not a PDF' }] };
  t.regex(check('DOC-001', loan)[0]?.summary ?? '', /among the 2 document\(s\)/);
});

test('DOC-001 does not fire when every core document is present', (t) => {
  const loan = loanFile(
    cd(),
    doc('note', {}),
    doc('security_instrument', {}),
    doc('loan_estimate', { fees: [] }),
    doc('urla', {}),
  );
  t.deepEqual(check('DOC-001', loan), []);
});

test('DOC-001 counts a core document whose fields could not be extracted as present', (t) => {
  const loan = loanFile(
    doc('closing_disclosure', { fees: [] }),
    doc('note', {}),
    doc('security_instrument', {}),
    doc('loan_estimate', { fees: [] }),
    doc('urla', {}),
  );
  t.deepEqual(check('DOC-001', loan), []);
});

test('DOC-002 fires when the package holds no appraisal', (t) => {
  const hits = check('DOC-002', loanFile(cd(), doc('note', {})));
  t.deepEqual(hits, [{ summary: 'No appraisal (1004/URAR) was found among the 2 document(s) of the package.' }]);
});

test('DOC-002 does not fire when an appraisal is present, even one with no extracted fields', (t) => {
  t.deepEqual(check('DOC-002', loanFile(cd(), doc('appraisal', {}))), []);
});

// ---- DOC-003 -----------------------------------------------------------------------------------------

test('DOC-003 fires when the URLA shows a wage earner and there is no pay stub and no W-2', (t) => {
  const urla = doc('urla', { wageEarner: at(true, 2), employer: at('Acme Corp', 2) }, { filename: 'urla.pdf' });
  const hits = check('DOC-003', loanFile(urla, cd()));
  t.is(hits.length, 1);
  t.is(hits[0]?.subject, undefined);
  t.is(
    hits[0]?.summary,
    'URLA (urla.pdf, p.2) shows wage income from employer Acme Corp; the package holds no pay stub and no W-2.',
  );
});

test('DOC-003 takes an employer named on the URLA without the employed flag as wage income', (t) => {
  const hits = check('DOC-003', loanFile(doc('urla', { employer: at('Acme Corp', 3) }, { filename: 'urla.pdf' })));
  t.regex(hits[0]?.summary ?? '', /URLA \(urla\.pdf, p\.3\) shows wage income from employer Acme Corp/);
});

test('DOC-003 does not fire when a pay stub or a W-2 documents the income', (t) => {
  const urla = doc('urla', { wageEarner: at(true), employer: at('Acme Corp') });
  t.deepEqual(check('DOC-003', loanFile(urla, doc('pay_stub', {}))), []);
  t.deepEqual(check('DOC-003', loanFile(urla, doc('w2', {}))), []);
});

test('DOC-003 does not fire for a self-employed borrower', (t) => {
  t.deepEqual(
    check('DOC-003', loanFile(doc('urla', { wageEarner: at(false), employer: at('Jones Consulting LLC') }))),
    [],
  );
});

test('DOC-003 does not fire when the URLA shows neither employment nor an employer, or there is no URLA', (t) => {
  t.deepEqual(check('DOC-003', loanFile(doc('urla', { borrower: at('Michael Jones') }))), []);
  t.deepEqual(check('DOC-003', loanFile(cd())), []);
});

// ---- DOC-004 -----------------------------------------------------------------------------------------

const statement = (filename: string, periodStart: string | undefined, periodEnd: string | undefined, bank?: string) =>
  doc(
    'bank_statement',
    {
      ...(periodStart ? { periodStart: at(periodStart) } : {}),
      ...(periodEnd ? { periodEnd: at(periodEnd) } : {}),
      ...(bank ? { bank: at(bank) } : {}),
    },
    { filename },
  );

test('DOC-004 fires when no two bank statements cover consecutive months', (t) => {
  const hits = check(
    'DOC-004',
    loanFile(statement('jan.pdf', '2026-01-01', '2026-01-31'), statement('mar.pdf', '2026-03-01', '2026-03-31')),
  );
  t.is(hits.length, 1);
  t.is(
    hits[0]?.summary,
    'No two of the 2 bank statements cover consecutive months: Bank statement (jan.pdf, p.1) for 2026-01-01 to 2026-01-31; Bank statement (mar.pdf, p.1) for 2026-03-01 to 2026-03-31.',
  );
});

test('DOC-004 over 3,000 statements of which none follows another: fires, naming 20 and counting the rest', (t) => {
  // Each a month two years after the last: no pair (a split PDF of statements makes thousands of documents).
  const many = Array.from({ length: 3_000 }, (_, i) => {
    const month = String((i % 12) + 1).padStart(2, '0');
    const year = 1960 + 2 * Math.floor(i / 12) + (i % 2);
    return statement(`s${i}.pdf`, `${year}-${month}-01`, `${year}-${month}-28`, i % 2 ? 'First Bank' : 'Second Bank');
  });
  const started = performance.now();
  const [hit] = check('DOC-004', loanFile(...many));
  t.log(`3,000 statements checked in ${Math.round(performance.now() - started)} ms`);
  t.regex(
    hit?.summary ?? '',
    /^No two of the 3000 bank statements cover consecutive months: Bank statement \(s0\.pdf, p\.1\) for 1960-01-01 to 1960-01-28; /,
  );
  t.regex(hit?.summary ?? '', /\(s19\.pdf, p\.1\) for [-\d]+ to [-\d]+; and 2980 more\.$/);
  // One consecutive pair among them, the last two, is enough.
  many.push(
    statement('a.pdf', '2030-01-01', '2030-01-31', 'Third Bank'),
    statement('b.pdf', '2030-02-01', '2030-02-28', 'Third Bank'),
  );
  t.deepEqual(check('DOC-004', loanFile(...many)), []);
});

test('DOC-004 fires when the package holds a single bank statement, or none', (t) => {
  t.is(
    check('DOC-004', loanFile(statement('feb.pdf', '2026-02-01', '2026-02-28')))[0]?.summary,
    'The package holds one bank statement, Bank statement (feb.pdf, p.1) for 2026-02-01 to 2026-02-28; two consecutive monthly statements are needed.',
  );
  t.is(
    check('DOC-004', loanFile(cd()))[0]?.summary,
    'The package holds no bank statement; two consecutive monthly statements are needed.',
  );
});

test('DOC-004 does not fire for two statements of consecutive calendar months, in either order', (t) => {
  t.deepEqual(
    check(
      'DOC-004',
      loanFile(statement('feb.pdf', '2026-02-01', '2026-02-28'), statement('jan.pdf', '2026-01-01', '2026-01-31')),
    ),
    [],
  );
});

test('DOC-004 does not fire for statement periods that run mid-month to mid-month', (t) => {
  t.deepEqual(
    check(
      'DOC-004',
      loanFile(statement('a.pdf', '2026-01-15', '2026-02-14'), statement('b.pdf', '2026-02-15', '2026-03-14')),
    ),
    [],
  );
});

test('DOC-004 takes statements with only period ends in consecutive months as consecutive', (t) => {
  t.deepEqual(
    check(
      'DOC-004',
      loanFile(statement('a.pdf', undefined, '2026-01-31'), statement('b.pdf', undefined, '2026-02-28')),
    ),
    [],
  );
});

test('DOC-004 fires when the consecutive statements are of two different banks', (t) => {
  const hits = check(
    'DOC-004',
    loanFile(
      statement('a.pdf', '2026-01-01', '2026-01-31', 'Ficus Bank'),
      statement('b.pdf', '2026-02-01', '2026-02-28', 'Other Bank'),
    ),
  );
  t.is(hits.length, 1);
});

test('DOC-004 does not fire when one of two statements has no legible period', (t) => {
  t.deepEqual(
    check(
      'DOC-004',
      loanFile(statement('a.pdf', '2026-01-01', '2026-01-31'), statement('b.pdf', undefined, undefined)),
    ),
    [],
  );
});

// ---- DOC-005 -----------------------------------------------------------------------------------------

test('DOC-005 fires for a Note whose signature line is blank, with the filename as subject', (t) => {
  const hits = check('DOC-005', loanFile(doc('note', { signed: at(false, 3) }, { filename: 'note.pdf' })));
  t.deepEqual(hits, [{ subject: 'note.pdf', summary: 'The signature line of Note (note.pdf, p.3) appears unsigned.' }]);
});

test('DOC-005 fires once for a file holding an unsigned Note and an unsigned security instrument', (t) => {
  const hits = check(
    'DOC-005',
    loanFile(
      doc('note', { signed: at(false, 3) }, { filename: 'closing.pdf' }),
      doc('security_instrument', { signed: at(false, 14) }, { filename: 'closing.pdf' }),
    ),
  );
  t.deepEqual(hits, [
    {
      subject: 'closing.pdf',
      summary:
        'The signature lines of Note (closing.pdf, p.3) and Security instrument (closing.pdf, p.14) appear unsigned.',
    },
  ]);
});

test('DOC-005 does not fire for signed instruments', (t) => {
  t.deepEqual(
    check(
      'DOC-005',
      loanFile(doc('note', { signed: at(true, 3) }), doc('security_instrument', { signed: at(true, 9) })),
    ),
    [],
  );
});

test('DOC-005 does not fire when the signature could not be assessed', (t) => {
  t.deepEqual(check('DOC-005', loanFile(doc('note', {}), doc('security_instrument', {}))), []);
});

// ---- DOC-006 -----------------------------------------------------------------------------------------

test('DOC-006 fires once per file listing its OCR pages below the confidence threshold', (t) => {
  const scan = doc(
    'pay_stub',
    {},
    { filename: 'scan.pdf', pages: [textPage(1), ocrPage(2, 41.37), ocrPage(3, 38), ocrPage(4, 92)] },
  );
  const hits = check('DOC-006', loanFile(scan));
  t.deepEqual(hits, [
    {
      subject: 'scan.pdf',
      summary:
        'Pay stub (scan.pdf, p.2) and Pay stub (scan.pdf, p.3) have no text layer and OCR read them at confidence 41.3 and 38, below the threshold of 60.',
    },
  ]);
});

test('DOC-006 reads the threshold from the rule context', (t) => {
  const scan = doc('w2', {}, { filename: 'w2.jpg', pages: [ocrPage(1, 70)] });
  t.deepEqual(check('DOC-006', loanFile(scan)), []);
  const hits = check('DOC-006', loanFile(scan), { ocrConfidenceThreshold: 75 });
  t.is(
    hits[0]?.summary,
    'W-2 (w2.jpg, p.1) has no text layer and OCR read it at confidence 70, below the threshold of 75.',
  );
});

test('DOC-006 does not fire for text-layer pages or OCR pages at or above the threshold', (t) => {
  t.deepEqual(check('DOC-006', loanFile(doc('note', {}, { pages: [textPage(1), ocrPage(2, 60)] }))), []);
});

test('DOC-006 does not fire for an OCR page without a confidence, nor for files that could not be read at all', (t) => {
  const loan: LoanFile = {
    ...loanFile(doc('note', {}, { pages: [ocrPage(1, null)] })),
    unreadable: [{ filename: 'broken.pdf', reason: 'encrypted' }],
  };
  t.deepEqual(check('DOC-006', loan), []);
});

// ---- DOC-007 -----------------------------------------------------------------------------------------

const numbered = (filename: string, pages: PageInfo[]): LoanDocument =>
  doc('closing_disclosure', { fees: [] }, { filename, pages });

test('DOC-007 fires when "Page x of y" footers show pages missing', (t) => {
  const hits = check(
    'DOC-007',
    loanFile(
      numbered('cd.pdf', [
        textPage(1, { index: 1, of: 5 }),
        textPage(2, { index: 2, of: 5 }),
        textPage(3, { index: 5, of: 5 }),
      ]),
    ),
  );
  t.deepEqual(hits, [
    {
      subject: 'cd.pdf',
      summary: 'Closing Disclosure (cd.pdf, p.1) is numbered "Page x of 5" but pages 3 and 4 of 5 are missing.',
    },
  ]);
});

test('DOC-007 fires when the last page is missing', (t) => {
  const hits = check(
    'DOC-007',
    loanFile(numbered('cd.pdf', [textPage(1, { index: 1, of: 3 }), textPage(2, { index: 2, of: 3 })])),
  );
  t.regex(hits[0]?.summary ?? '', /page 3 of 3 is missing/);
});

test('DOC-007 does not fire for a complete document behind a cover sheet', (t) => {
  const pages = [textPage(1), ...[1, 2, 3].map((index) => textPage(index + 1, { index, of: 3 }))];
  t.deepEqual(check('DOC-007', loanFile(numbered('cd.pdf', pages))), []);
});

test('DOC-007 does not fire when a page whose footer could not be read sits in the gap', (t) => {
  const pages = [textPage(1, { index: 1, of: 3 }), ocrPage(2, 80), textPage(3, { index: 3, of: 3 })];
  t.deepEqual(check('DOC-007', loanFile(numbered('cd.pdf', pages))), []);
});

test('DOC-007 does not fire for a document without footers', (t) => {
  t.deepEqual(check('DOC-007', loanFile(numbered('cd.pdf', [textPage(1), textPage(2)]))), []);
});

// ---- DOC-008 -----------------------------------------------------------------------------------------

test('DOC-008 fires for a pay stub paid more than 120 days before the closing date', (t) => {
  const stub = doc('pay_stub', { payDate: at('2025-11-20') }, { filename: 'stub.pdf' });
  const hits = check('DOC-008', loanFile(cd('2026-03-31'), stub));
  t.deepEqual(hits, [
    {
      subject: 'stub.pdf',
      summary:
        'Pay stub (stub.pdf, p.1) paid 2025-11-20 is 131 days old at the closing date 2026-03-31 (Closing Disclosure (cd.pdf, p.1)); the limit is 120 days.',
    },
  ]);
});

test('DOC-008 fires for a stale bank statement (period end) and credit report (report date)', (t) => {
  const hits = check(
    'DOC-008',
    loanFile(
      cd('2026-03-31'),
      statement('bank.pdf', '2025-10-01', '2025-10-31'),
      doc('credit_report', { reportDate: at('2025-11-01', 2) }, { filename: 'credit.pdf' }),
    ),
  );
  t.deepEqual(
    hits.map((h) => h.subject),
    ['bank.pdf', 'credit.pdf'],
  );
  t.regex(
    hits[0]?.summary ?? '',
    /Bank statement \(bank\.pdf, p\.1\) for the period ending 2025-10-31 is 151 days old/,
  );
  t.regex(hits[1]?.summary ?? '', /Credit report \(credit\.pdf, p\.2\) dated 2025-11-01 is 150 days old/);
});

test('DOC-008 does not fire for a document exactly 120 days old, and fires at 121', (t) => {
  const stubOn = (payDate: string) => doc('pay_stub', { payDate: at(payDate) }, { filename: 'stub.pdf' });
  t.deepEqual(check('DOC-008', loanFile(cd('2026-03-31'), stubOn('2025-12-01'))), []);
  t.regex(check('DOC-008', loanFile(cd('2026-03-31'), stubOn('2025-11-30')))[0]?.summary ?? '', /is 121 days old/);
});

test("DOC-008 uses a pay stub's period end when it shows no pay date", (t) => {
  const stub = doc('pay_stub', { periodEnd: at('2025-10-31') }, { filename: 'stub.pdf' });
  t.regex(
    check('DOC-008', loanFile(cd('2026-03-31'), stub))[0]?.summary ?? '',
    /for the period ending 2025-10-31 is 151 days old/,
  );
});

test('DOC-008 does not fire without a closing date or without a document date', (t) => {
  const old = doc('pay_stub', { payDate: at('2024-01-01') });
  t.deepEqual(check('DOC-008', loanFile(doc('closing_disclosure', { fees: [] }), old)), []);
  t.deepEqual(check('DOC-008', loanFile(cd('2026-03-31'), doc('pay_stub', {}))), []);
});

// ---- DOC-009 -----------------------------------------------------------------------------------------

test('DOC-009 lists unclassified documents and unreadable files by filename in one finding', (t) => {
  const loan: LoanFile = {
    documents: [cd(), doc('other', {}, { filename: 'scan.png' }), doc('other', {}, { filename: 'scan.png' })],
    unreadable: [{ filename: 'broken.pdf', reason: 'not a PDF' }],
  };
  t.deepEqual(check('DOC-009', loan), [
    { summary: '2 document(s) could not be classified: scan.png, broken.pdf (could not be read: not a PDF).' },
  ]);
});

test('DOC-009 does not fire when every document is classified', (t) => {
  t.deepEqual(check('DOC-009', loanFile(cd(), doc('note', {}))), []);
});

test('DOC-009 does not fire for an empty package', (t) => {
  t.deepEqual(check('DOC-009', loanFile()), []);
});

// ---- Evidence and regulations ------------------------------------------------------------------------

test('DOC-006 rests on each illegible page and its confidence; DOC-007 on the footers of the numbering that has gaps', (t) => {
  const scan = doc(
    'pay_stub',
    {},
    { filename: 'scan.pdf', pages: [textPage(1), ocrPage(2, 41.37), ocrPage(3, 38), ocrPage(4, 92)] },
  );
  t.deepEqual(evidenceOfHits(rules, loanFile(scan))['DOC-006'], [
    ['scan.pdf p.2 ocr_confidence=41.3', 'scan.pdf p.3 ocr_confidence=38'],
  ]);
  const gaps = numbered('cd.pdf', [
    textPage(1, { index: 1, of: 5 }),
    textPage(2, { index: 2, of: 5 }),
    textPage(3, { index: 5, of: 5 }),
  ]);
  t.deepEqual(evidenceOfHits(rules, loanFile(gaps))['DOC-007'], [
    ['cd.pdf p.1 page_footer=Page 1 of 5', 'cd.pdf p.2 page_footer=Page 2 of 5', 'cd.pdf p.3 page_footer=Page 5 of 5'],
  ]);
});

test('a missing Loan Estimate or Closing Disclosure applies the provision that requires it; a missing Note none; neither has evidence', (t) => {
  const findings = runRules(loanFile(doc('urla', {})), CONTEXT).filter((f) => f.code === 'DOC-001');
  t.deepEqual(
    findings.map((f) => [f.key, f.regulation, f.evidence.length]),
    [
      ['DOC-001:note', null, 0],
      ['DOC-001:security_instrument', null, 0],
      ['DOC-001:closing_disclosure', '12 CFR 1026.19(f)(1)(i)', 0],
      ['DOC-001:loan_estimate', '12 CFR 1026.19(e)(1)(i)', 0],
    ],
  );
});

test('a finding keeps at most MAX_EVIDENCE items however many pages its summary counts', (t) => {
  const pages = Array.from({ length: 300 }, (_, i) => ocrPage(i + 1, 20));
  const [finding] = runRules(loanFile(doc('pay_stub', {}, { filename: 'scan.pdf', pages })), CONTEXT).filter(
    (f) => f.code === 'DOC-006',
  );
  t.is(finding?.evidence.length, 20);
  t.deepEqual(finding?.evidence[19], { document: 'scan.pdf', page: 20, field: 'ocr_confidence', value: '20' });
  t.regex(finding?.summary ?? '', /and 280 more/);
});
