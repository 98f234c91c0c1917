// TRD-001..TRD-005 and TRD-009 in July 2025: Friday the 4th is Independence Day and Sundays are never
// business days, so the counts below cross a federal holiday and a weekend.
//   Jul 2025: Tu 1, We 2, Th 3, [Fr 4 holiday], Sa 5, [Su 6], Mo 7, Tu 8, We 9, Th 10, Fr 11, Sa 12, [Su 13], Mo 14
import test from 'ava';
import type { ClosingDisclosureFields, LoanEstimateFields, LoanFile } from '../../../../src/qc/fields.js';
import { rules } from '../../../../src/qc/rules/disclosure-timing.js';
import { at, doc, loanFile, evidenceOfHits, hitsOf as familyHits } from '../../../support/loan-file.js';

const le = (filename: string, fields: Partial<LoanEstimateFields>) =>
  doc('loan_estimate', { fees: [], ...fields }, { filename });
const cd = (filename: string, fields: Partial<ClosingDisclosureFields>) =>
  doc(
    'closing_disclosure',
    { fees: [], product: at('Fixed Rate'), apr: at(0.04174, 5), prepaymentPenalty: at(false), ...fields },
    { filename },
  );
const urla = (applicationDate: string) =>
  doc('urla', { applicationDate: at(applicationDate) }, { filename: 'urla.pdf' });

const hitsOf = (loan: LoanFile) => familyHits(rules, loan);

/** A package with every deadline met: application Jun 2, LE Jun 3, CD signed Jul 1, consummation Jul 11. */
const timely = () =>
  loanFile(
    urla('2025-06-02'),
    le('le.pdf', { dateIssued: at('2025-06-03'), rateLocked: at(true), rateLockUntil: at('2025-07-15') }),
    cd('cd.pdf', { dateIssued: at('2025-07-01'), receivedDate: at('2025-07-01', 5), closingDate: at('2025-07-11') }),
  );

test('the rule set covers TRD-001..TRD-005 and TRD-009 once each', (t) => {
  t.deepEqual(
    rules.map((r) => r.code),
    ['TRD-001', 'TRD-002', 'TRD-003', 'TRD-004', 'TRD-005', 'TRD-009'],
  );
});

test('a package that meets every deadline produces no timing finding', (t) => {
  t.deepEqual(hitsOf(timely()), {});
});

test('an empty package, or one without dates, produces no timing finding', (t) => {
  t.deepEqual(hitsOf(loanFile()), {});
  t.deepEqual(hitsOf(loanFile(urla('2025-06-02'), le('le.pdf', {}), cd('cd.pdf', {}))), {});
});

// TRD-001

test('TRD-001 fires for a Loan Estimate issued 4 general business days after the application (Jul 4 and the weekend not counted)', (t) => {
  const hits = hitsOf(loanFile(urla('2025-06-30'), le('le.pdf', { dateIssued: at('2025-07-07') })));
  t.deepEqual(hits['TRD-001'], [
    {
      summary:
        'Loan Estimate (le.pdf, p.1) was issued 2025-07-07, 4 general business days after the application date 2025-06-30 on URLA (urla.pdf, p.1); it was due by 2025-07-03 (3 general business days).',
    },
  ]);
});

test('TRD-001 does not fire for a Loan Estimate issued on the third general business day', (t) => {
  t.is(hitsOf(loanFile(urla('2025-06-30'), le('le.pdf', { dateIssued: at('2025-07-03') })))['TRD-001'], undefined);
});

test('TRD-001 counts from the earliest application date (a URLA re-signed at closing does not restart it)', (t) => {
  const hits = hitsOf(loanFile(urla('2025-07-11'), urla('2025-06-30'), le('le.pdf', { dateIssued: at('2025-07-07') })));
  t.regex(hits['TRD-001']?.[0]?.summary ?? '', /after the application date 2025-06-30/);
});

test('TRD-001 is skipped without an application date', (t) => {
  t.is(hitsOf(loanFile(le('le.pdf', { dateIssued: at('2025-07-07') })))['TRD-001'], undefined);
});

// TRD-002

test('TRD-002 fires for a CD mailed Thursday 2025-07-03 and consummated 2025-07-10 (mailbox receipt Tuesday 2025-07-08)', (t) => {
  const hits = hitsOf(loanFile(cd('cd.pdf', { dateIssued: at('2025-07-03'), closingDate: at('2025-07-10') })));
  t.deepEqual(hits['TRD-002'], [
    {
      summary:
        'Closing Disclosure (cd.pdf, p.1) was received 2025-07-08 (issued 2025-07-03, mailbox rule of 3 specific business days), 2 specific business days before consummation on 2025-07-10 (Closing Date of Closing Disclosure (cd.pdf, p.1)); at least 3 are required (earliest consummation 2025-07-11).',
    },
  ]);
});

test('TRD-002 does not fire for the same mailed CD consummated Friday 2025-07-11', (t) => {
  t.is(
    hitsOf(loanFile(cd('cd.pdf', { dateIssued: at('2025-07-03'), closingDate: at('2025-07-11') })))['TRD-002'],
    undefined,
  );
});

test('TRD-002 uses the signed receipt date: received 2025-07-03, Saturday counts, the holiday and Sunday do not', (t) => {
  const signed = (closingDate: string) =>
    loanFile(
      cd('cd.pdf', { dateIssued: at('2025-07-03'), receivedDate: at('2025-07-03', 5), closingDate: at(closingDate) }),
    );
  t.regex(
    hitsOf(signed('2025-07-07'))['TRD-002']?.[0]?.summary ?? '',
    /^Closing Disclosure \(cd\.pdf, p\.5\) was received 2025-07-03 \(signed receipt\), 2 specific business days before/,
  );
  t.is(hitsOf(signed('2025-07-08'))['TRD-002'], undefined);
});

test('TRD-002 reads the waiting period from the first CD received, not a corrected one at closing', (t) => {
  const hits = hitsOf(
    loanFile(
      cd('cd-initial.pdf', {
        dateIssued: at('2025-07-01'),
        receivedDate: at('2025-07-01'),
        closingDate: at('2025-07-11'),
      }),
      cd('cd-final.pdf', {
        dateIssued: at('2025-07-11'),
        receivedDate: at('2025-07-11'),
        closingDate: at('2025-07-11'),
      }),
    ),
  );
  t.is(hits['TRD-002'], undefined);
});

test('TRD-002 fires for a CD issued on the closing date, as the H-25(B) sample is (mailbox receipt after consummation)', (t) => {
  const hits = hitsOf(loanFile(cd('cd.pdf', { dateIssued: at('2013-04-15'), closingDate: at('2013-04-15') })));
  t.regex(
    hits['TRD-002']?.[0]?.summary ?? '',
    /was received 2013-04-18 \(issued 2013-04-15, mailbox rule of 3 specific business days\), after consummation on 2013-04-15 .*\(earliest consummation 2013-04-22\)\.$/,
  );
});

test('TRD-002 is skipped without a closing date', (t) => {
  t.is(hitsOf(loanFile(cd('cd.pdf', { dateIssued: at('2025-07-03') })))['TRD-002'], undefined);
});

// TRD-003

test('TRD-003 fires for an initial Loan Estimate issued Thursday 2025-07-03 and consummation Friday 2025-07-11 (6 specific business days)', (t) => {
  const hits = hitsOf(
    loanFile(le('le.pdf', { dateIssued: at('2025-07-03') }), cd('cd.pdf', { closingDate: at('2025-07-11') })),
  );
  t.deepEqual(hits['TRD-003'], [
    {
      summary:
        'Loan Estimate (le.pdf, p.1), the initial Loan Estimate, was issued 2025-07-03, 6 specific business days before consummation on 2025-07-11 (Closing Date of Closing Disclosure (cd.pdf, p.1)); at least 7 are required (earliest consummation 2025-07-12).',
    },
  ]);
});

test('TRD-003 does not fire for consummation on Saturday 2025-07-12, the seventh specific business day', (t) => {
  t.is(
    hitsOf(loanFile(le('le.pdf', { dateIssued: at('2025-07-03') }), cd('cd.pdf', { closingDate: at('2025-07-12') })))[
      'TRD-003'
    ],
    undefined,
  );
});

test('TRD-003 reads the initial Loan Estimate, not the revised one', (t) => {
  const file = loanFile(
    le('le-revised.pdf', { dateIssued: at('2025-07-07') }),
    le('le.pdf', { dateIssued: at('2025-06-03') }),
    cd('cd.pdf', { closingDate: at('2025-07-11') }),
  );
  t.is(hitsOf(file)['TRD-003'], undefined);
});

test('TRD-003 is skipped without a Closing Disclosure closing date', (t) => {
  t.is(hitsOf(loanFile(le('le.pdf', { dateIssued: at('2025-07-03') })))['TRD-003'], undefined);
});

// TRD-004

test('TRD-004 fires for a revised Loan Estimate mailed 2025-07-07 (received 2025-07-10) before consummation 2025-07-14', (t) => {
  const file = loanFile(
    le('le.pdf', { dateIssued: at('2025-06-03') }),
    le('le-revised.pdf', { dateIssued: at('2025-07-07') }),
    cd('cd.pdf', { dateIssued: at('2025-07-08'), closingDate: at('2025-07-14') }),
  );
  t.deepEqual(hitsOf(file)['TRD-004'], [
    {
      subject: 'le-revised.pdf',
      summary:
        'The revised Loan Estimate (le-revised.pdf, p.1) was received 2025-07-10 (issued 2025-07-07, mailbox rule of 3 specific business days): 3 specific business days before consummation on 2025-07-14 (Closing Date of Closing Disclosure (cd.pdf, p.1)), fewer than the 4 required.',
    },
  ]);
});

test('TRD-004 fires for a revised Loan Estimate issued the same day as the first CD', (t) => {
  const file = loanFile(
    le('le.pdf', { dateIssued: at('2025-06-03') }),
    le('le-revised.pdf', { dateIssued: at('2025-06-20'), receivedDate: at('2025-06-20') }),
    cd('cd.pdf', { dateIssued: at('2025-06-20'), closingDate: at('2025-07-14') }),
  );
  const [hit] = hitsOf(file)['TRD-004'] ?? [];
  t.is(hit?.subject, 'le-revised.pdf');
  t.is(
    hit?.summary,
    'The revised Loan Estimate (le-revised.pdf, p.1) was received 2025-06-20 (signed receipt): not before the first Closing Disclosure (cd.pdf, p.1), issued 2025-06-20 and received 2025-06-24.',
  );
});

test('TRD-004 does not fire for a revised Loan Estimate received 2025-07-01, before the CD and 8 business days before consummation', (t) => {
  const file = loanFile(
    le('le.pdf', { dateIssued: at('2025-06-03') }),
    le('le-revised.pdf', { dateIssued: at('2025-07-01'), receivedDate: at('2025-07-01') }),
    cd('cd.pdf', { dateIssued: at('2025-07-03'), closingDate: at('2025-07-14') }),
  );
  t.is(hitsOf(file)['TRD-004'], undefined);
});

test('TRD-004 is skipped when there is no revised Loan Estimate, or it has no date', (t) => {
  t.is(
    hitsOf(loanFile(le('le.pdf', { dateIssued: at('2025-07-10') }), cd('cd.pdf', { closingDate: at('2025-07-11') })))[
      'TRD-004'
    ],
    undefined,
  );
  t.is(
    hitsOf(
      loanFile(
        le('le.pdf', { dateIssued: at('2025-06-03') }),
        le('le-2.pdf', {}),
        cd('cd.pdf', { closingDate: at('2025-07-11') }),
      ),
    )['TRD-004'],
    undefined,
  );
});

// TRD-005

const corrected = (changes: Partial<ClosingDisclosureFields>, receivedDate = '2025-07-10') =>
  loanFile(
    cd('cd-initial.pdf', {
      dateIssued: at('2025-07-01'),
      receivedDate: at('2025-07-01'),
      closingDate: at('2025-07-11'),
    }),
    cd('cd-corrected.pdf', {
      dateIssued: at('2025-07-09'),
      receivedDate: at(receivedDate),
      closingDate: at('2025-07-11'),
      ...changes,
    }),
  );

test('TRD-005 fires for a corrected CD raising the APR 0.2 point, received the day before consummation', (t) => {
  t.deepEqual(hitsOf(corrected({ apr: at(0.04374, 5) }))['TRD-005'], [
    {
      subject: 'cd-corrected.pdf',
      summary:
        'Closing Disclosure (cd-corrected.pdf, p.1) raises the APR from 4.174% (Closing Disclosure (cd-initial.pdf, p.5)) to 4.374%, beyond the 0.125 tolerance, and was received 2025-07-10 (signed receipt), 1 specific business day before consummation on 2025-07-11 (Closing Date of Closing Disclosure (cd-corrected.pdf, p.1)); a new 3-business-day waiting period was required.',
    },
  ]);
});

test('TRD-005 fires for a corrected CD changing the product or adding a prepayment penalty', (t) => {
  t.regex(
    hitsOf(corrected({ product: at('5/1 Adjustable Rate') }))['TRD-005']?.[0]?.summary ?? '',
    /changes the product from "Fixed Rate" \(Closing Disclosure \(cd-initial\.pdf, p\.1\)\) to "5\/1 Adjustable Rate", and was received 2025-07-10/,
  );
  t.regex(
    hitsOf(corrected({ prepaymentPenalty: at(true) }))['TRD-005']?.[0]?.summary ?? '',
    /adds a prepayment penalty that Closing Disclosure \(cd-initial\.pdf, p\.1\) did not have, and was received/,
  );
});

test('TRD-005 does not fire for an APR rise within 0.125, an APR decrease, or a change received 3 business days ahead', (t) => {
  t.is(hitsOf(corrected({ apr: at(0.04274, 5) }))['TRD-005'], undefined);
  t.is(hitsOf(corrected({ apr: at(0.03974, 5) }))['TRD-005'], undefined);
  t.is(hitsOf(corrected({ apr: at(0.04374, 5) }, '2025-07-08'))['TRD-005'], undefined);
});

test('TRD-005 measures small APR steps against the CD that last started a wait', (t) => {
  const file = loanFile(
    cd('cd-1.pdf', { dateIssued: at('2025-07-01'), receivedDate: at('2025-07-01'), closingDate: at('2025-07-11') }),
    cd('cd-2.pdf', {
      dateIssued: at('2025-07-07'),
      receivedDate: at('2025-07-07'),
      apr: at(0.04274, 5),
      closingDate: at('2025-07-11'),
    }),
    cd('cd-3.pdf', {
      dateIssued: at('2025-07-10'),
      receivedDate: at('2025-07-10'),
      apr: at(0.04374, 5),
      closingDate: at('2025-07-11'),
    }),
  );
  t.deepEqual(
    hitsOf(file)['TRD-005']?.map((h) => h.subject),
    ['cd-3.pdf'],
  );
});

test('TRD-005 is skipped when the earlier CD has no APR to compare', (t) => {
  const file = loanFile(
    cd('cd-initial.pdf', {
      dateIssued: at('2025-07-01'),
      receivedDate: at('2025-07-01'),
      apr: undefined,
      closingDate: at('2025-07-11'),
    }),
    cd('cd-corrected.pdf', {
      dateIssued: at('2025-07-09'),
      receivedDate: at('2025-07-10'),
      apr: at(0.04374, 5),
      closingDate: at('2025-07-11'),
    }),
  );
  t.is(hitsOf(file)['TRD-005'], undefined);
});

// TRD-009

test('TRD-009 fires when the last Loan Estimate locked the rate until 2025-07-01 and consummation is 2025-07-11', (t) => {
  const file = loanFile(
    le('le.pdf', { dateIssued: at('2025-06-03'), rateLocked: at(true), rateLockUntil: at('2025-07-01') }),
    cd('cd.pdf', { closingDate: at('2025-07-11') }),
  );
  t.deepEqual(hitsOf(file)['TRD-009'], [
    {
      summary:
        'Loan Estimate (le.pdf, p.1), the last Loan Estimate issued, locked the rate until 2025-07-01; consummation on 2025-07-11 (Closing Date of Closing Disclosure (cd.pdf, p.1)) is later and no revised Loan Estimate followed.',
    },
  ]);
});

test('TRD-009 does not fire when a revised Loan Estimate followed the expired lock, or the lock runs to closing', (t) => {
  const revised = loanFile(
    le('le.pdf', { dateIssued: at('2025-06-03'), rateLocked: at(true), rateLockUntil: at('2025-07-01') }),
    le('le-revised.pdf', { dateIssued: at('2025-07-02'), rateLocked: at(true), rateLockUntil: at('2025-07-31') }),
    cd('cd.pdf', { closingDate: at('2025-07-11') }),
  );
  t.is(hitsOf(revised)['TRD-009'], undefined);
  const onTheDay = loanFile(
    le('le.pdf', { dateIssued: at('2025-06-03'), rateLocked: at(true), rateLockUntil: at('2025-07-11') }),
    cd('cd.pdf', { closingDate: at('2025-07-11') }),
  );
  t.is(hitsOf(onTheDay)['TRD-009'], undefined);
});

test('TRD-009 is skipped for a floating rate or a lock without a date', (t) => {
  const floating = loanFile(
    le('le.pdf', { dateIssued: at('2025-06-03'), rateLocked: at(false), rateLockUntil: at('2025-07-01') }),
    cd('cd.pdf', { closingDate: at('2025-07-11') }),
  );
  t.is(hitsOf(floating)['TRD-009'], undefined);
  const undated = loanFile(
    le('le.pdf', { dateIssued: at('2025-06-03'), rateLocked: at(true) }),
    cd('cd.pdf', { closingDate: at('2025-07-11') }),
  );
  t.is(hitsOf(undated)['TRD-009'], undefined);
});

// Evidence

test('TRD-002 rests on the date the receipt was counted from and the closing date', (t) => {
  const mailed = loanFile(cd('cd.pdf', { dateIssued: at('2025-07-03'), closingDate: at('2025-07-10') }));
  t.deepEqual(evidenceOfHits(rules, mailed)['TRD-002'], [
    ['cd.pdf p.1 date_issued=2025-07-03', 'cd.pdf p.1 closing_date=2025-07-10'],
  ]);
  const signed = loanFile(
    cd('cd.pdf', { dateIssued: at('2025-07-03'), receivedDate: at('2025-07-09', 5), closingDate: at('2025-07-10') }),
  );
  t.deepEqual(evidenceOfHits(rules, signed)['TRD-002'], [
    ['cd.pdf p.5 received_date=2025-07-09', 'cd.pdf p.1 closing_date=2025-07-10'],
  ]);
});
