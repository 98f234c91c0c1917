// The collateral rules COL-001 (appraised value and loan-to-value) and COL-002 (appraisal age).
import test from 'ava';
import type { RuleCode } from '../../../../src/qc/catalog.js';
import type { AppraisalFields, ClosingDisclosureFields, LoanFile } from '../../../../src/qc/fields.js';
import { rules } from '../../../../src/qc/rules/collateral.js';
import { at, doc, loanFile, ruleHits } from '../../../support/loan-file.js';

function check(code: RuleCode, loan: LoanFile) {
  return ruleHits(rules, code, loan);
}

const cd = (fields: Partial<ClosingDisclosureFields>) =>
  doc('closing_disclosure', { fees: [], ...fields }, { filename: 'cd.pdf' });
const purchase = (loanAmount: number) => cd({ purpose: at('Purchase'), loanAmount: at(loanAmount) });
const appraisal = (fields: AppraisalFields, filename = 'appraisal.pdf') => doc('appraisal', fields, { filename });

// ---- COL-001 -----------------------------------------------------------------------------------------

test('COL-001 fires when a purchase loan-to-value exceeds 97%, stating it with one decimal', (t) => {
  const hits = check('COL-001', loanFile(purchase(19_700_000), appraisal({ value: at(20_000_000, 2) })));
  t.deepEqual(hits, [
    {
      summary:
        'Loan-to-value is 98.5%: Closing Disclosure (cd.pdf, p.1) Loan Amount $197,000.00 on a ' +
        'purchase against the appraised value ' +
        '$200,000.00 of Appraisal (appraisal.pdf, p.2); the limit for a purchase is 97%.',
    },
  ]);
});

test('COL-001 does not fire at exactly 97%, and fires just above it without reading "97.0%"', (t) => {
  t.deepEqual(check('COL-001', loanFile(purchase(19_400_000), appraisal({ value: at(20_000_000) }))), []);
  t.regex(
    check('COL-001', loanFile(purchase(19_408_000), appraisal({ value: at(20_000_000) })))[0]?.summary ?? '',
    /^Loan-to-value is 97\.04%:/,
  );
});

test('COL-001 takes the lower of two appraised values', (t) => {
  const loan = loanFile(
    purchase(19_500_000),
    appraisal({ value: at(20_500_000) }, 'first.pdf'),
    appraisal({ value: at(20_000_000) }, 'second.pdf'),
  );
  t.regex(
    check('COL-001', loan)[0]?.summary ?? '',
    /Loan-to-value is 97\.5%: .* \$200,000\.00 of Appraisal \(second\.pdf, p\.1\)/,
  );
});

test('COL-001 fires when the appraisal states no value', (t) => {
  t.deepEqual(check('COL-001', loanFile(purchase(19_700_000), appraisal({ effectiveDate: at('2026-02-01') }))), [
    { summary: 'Appraisal (appraisal.pdf, p.1) states no opinion of value.' },
  ]);
});

test('COL-001 does not fire for a refinance above 97%', (t) => {
  const refinance = cd({ purpose: at('Refinance'), loanAmount: at(19_700_000) });
  t.deepEqual(check('COL-001', loanFile(refinance, appraisal({ value: at(20_000_000) }))), []);
});

test('COL-001 does not fire without an appraisal, a loan amount or a purpose', (t) => {
  t.deepEqual(check('COL-001', loanFile(purchase(19_700_000))), []);
  t.deepEqual(check('COL-001', loanFile(cd({ purpose: at('Purchase') }), appraisal({ value: at(10_000_000) }))), []);
  t.deepEqual(check('COL-001', loanFile(cd({ loanAmount: at(19_700_000) }), appraisal({ value: at(10_000_000) }))), []);
});

// ---- COL-002 -----------------------------------------------------------------------------------------

test('COL-002 fires when the appraisal is effective more than 120 days before the closing date', (t) => {
  const loan = loanFile(cd({ closingDate: at('2026-03-31') }), appraisal({ effectiveDate: at('2025-11-20', 1) }));
  t.deepEqual(check('COL-002', loan), [
    {
      summary:
        'Appraisal (appraisal.pdf, p.1) is effective 2025-11-20, 131 days before the closing date ' +
        '2026-03-31 (Closing Disclosure (cd.pdf, p.1)); the limit is 120 days.',
    },
  ]);
});

test('COL-002 does not fire for an appraisal effective exactly 120 days before closing', (t) => {
  t.deepEqual(
    check('COL-002', loanFile(cd({ closingDate: at('2026-03-31') }), appraisal({ effectiveDate: at('2025-12-01') }))),
    [],
  );
});

test('COL-002 does not fire when a later appraisal is recent enough', (t) => {
  const loan = loanFile(
    cd({ closingDate: at('2026-03-31') }),
    appraisal({ effectiveDate: at('2025-06-01') }, 'old.pdf'),
    appraisal({ effectiveDate: at('2026-03-01') }, 'new.pdf'),
  );
  t.deepEqual(check('COL-002', loan), []);
});

test('COL-002 does not fire without a closing date or an effective date', (t) => {
  t.deepEqual(check('COL-002', loanFile(cd({}), appraisal({ effectiveDate: at('2020-01-01') }))), []);
  t.deepEqual(check('COL-002', loanFile(cd({ closingDate: at('2026-03-31') }), appraisal({ value: at(1) }))), []);
});
