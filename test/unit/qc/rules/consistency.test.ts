// The consistency rules DOC-010 to DOC-012, and the name and address normalisation they compare by.
import test from 'ava';
import type { RuleCode } from '../../../../src/qc/catalog.js';
import type { ClosingDisclosureFields, LoanDocument, LoanFile } from '../../../../src/qc/fields.js';
import { rules } from '../../../../src/qc/rules/consistency.js';
import { addressWords, oneProperty, organisationKey, personKeys, sameAddress } from '../../../../src/qc/rules/names.js';
import { at, doc, loanFile, ruleHits } from '../../../support/loan-file.js';

function check(code: RuleCode, loan: LoanFile) {
  return ruleHits(rules, code, loan);
}

const cd = (fields: Partial<ClosingDisclosureFields>, filename = 'cd.pdf') =>
  doc('closing_disclosure', { fees: [], ...fields }, { filename });

// ---- names.ts ----------------------------------------------------------------------------------------

test('person names compare without case, punctuation, middle initials, titles and suffixes', (t) => {
  t.deepEqual(personKeys('Michael A. Jones'), ['michael jones']);
  t.deepEqual(personKeys('MICHAEL JONES, JR.'), ['michael jones']);
  t.deepEqual(personKeys('Jones, Michael A.'), ['michael jones']);
  t.deepEqual(personKeys('Mr. J. Michael Jones'), ['michael jones']);
  t.deepEqual(personKeys("Mary O'Brien-Stone"), ['mary obrienstone']);
  t.deepEqual(personKeys('Mary OBrien-Stone'), personKeys("MARY O'BRIEN-STONE"));
});

test('a borrower line names every borrower, and a shared surname is shared', (t) => {
  t.deepEqual(personKeys('Michael Jones and Mary Stone'), ['michael jones', 'mary stone']);
  t.deepEqual(personKeys('Michael & Mary Jones'), ['michael jones', 'mary jones']);
  t.deepEqual(personKeys('Michael Jones; Mary Stone'), ['michael jones', 'mary stone']);
});

test('employer names compare without case, punctuation and corporate suffixes', (t) => {
  t.is(organisationKey('Acme Corporation'), 'acme');
  t.is(organisationKey('ACME CORP.'), 'acme');
  t.is(organisationKey('The Acme Company, Inc.'), 'acme');
  t.is(organisationKey('Acme, L.L.C.'), 'acme');
  t.is(organisationKey('Smith & Sons Ltd'), 'smith and sons');
});

test('addresses compare in USPS spelling, and a street line matches the full address it starts', (t) => {
  t.deepEqual(addressWords('456 Somewhere Avenue, Anytown, ST 12345-6789'), [
    '456',
    'somewhere',
    'ave',
    'anytown',
    'st',
    '12345',
  ]);
  t.true(
    sameAddress(
      '123 North Main Street, Apt 4, Springfield, Illinois 62701',
      '123 N. Main St. #4, Springfield, IL 62701',
    ),
  );
  t.true(sameAddress('456 Somewhere Avenue', '456 Somewhere Ave, Anytown, ST 12345'));
  t.false(sameAddress('456 Somewhere Ave', '465 Somewhere Ave'));
  t.false(sameAddress('456 Somewhere Ave, Anytown', '456 Somewhere Dr, Anytown'));
});

// ---- DOC-010 -----------------------------------------------------------------------------------------

test('DOC-010 fires when the URLA names a borrower who is not on the Closing Disclosure', (t) => {
  const loan = loanFile(
    doc('note', { borrower: at('Michael A. Jones') }, { filename: 'note.pdf' }),
    cd({ borrower: at('Michael Jones and Mary Stone') }),
    doc('urla', { borrower: at('Michael Jonas') }, { filename: 'urla.pdf' }),
  );
  const hits = check('DOC-010', loan);
  t.is(hits.length, 1);
  t.is(hits[0]?.subject, undefined);
  t.is(
    hits[0]?.summary,
    'Note (note.pdf, p.1) names borrower Michael A. Jones; Closing Disclosure (cd.pdf, p.1) names Michael Jones and Mary Stone; URLA (urla.pdf, p.1) names Michael Jonas. Not among the borrowers Closing Disclosure (cd.pdf, p.1) names: Michael Jonas (URLA (urla.pdf, p.1)).',
  );
});

test('DOC-010 does not fire when the Note and the URLAs name borrowers the Closing Disclosure lists', (t) => {
  const loan = loanFile(
    doc('note', { borrower: at('MICHAEL A. JONES') }),
    cd({ borrower: at('Michael Jones and Mary Stone') }),
    doc('urla', { borrower: at('Jones, Michael') }, { filename: 'urla-1.pdf' }),
    doc('urla', { borrower: at('Mary Stone') }, { filename: 'urla-2.pdf' }),
  );
  t.deepEqual(check('DOC-010', loan), []);
});

test('DOC-010 compares the URLA with the Note when there is no Closing Disclosure', (t) => {
  const note = doc('note', { borrower: at('Michael A. Jones') }, { filename: 'note.pdf' });
  t.deepEqual(check('DOC-010', loanFile(note, doc('urla', { borrower: at('Michael Jones') }))), []);
  const hits = check(
    'DOC-010',
    loanFile(note, doc('urla', { borrower: at('Mike Jones', 2) }, { filename: 'urla.pdf' })),
  );
  t.regex(
    hits[0]?.summary ?? '',
    /Not among the borrowers Note \(note\.pdf, p\.1\) names: Mike Jones \(URLA \(urla\.pdf, p\.2\)\)\./,
  );
});

test('DOC-010 does not fire when only one document names a borrower', (t) => {
  t.deepEqual(check('DOC-010', loanFile(cd({ borrower: at('Michael Jones') }), doc('note', {}), doc('urla', {}))), []);
  t.deepEqual(
    check(
      'DOC-010',
      loanFile(doc('urla', { borrower: at('Michael Jones') }), doc('urla', { borrower: at('Mary Stone') })),
    ),
    [],
  );
});

// ---- DOC-011 -----------------------------------------------------------------------------------------

test('DOC-011 does not fire when the addresses differ only by "Avenue" and "Ave"', (t) => {
  const loan = loanFile(
    doc('note', { property: at('456 Somewhere Avenue, Anytown, ST 12345') }),
    doc('security_instrument', { property: at('456 SOMEWHERE AVENUE, ANYTOWN, ST 12345-0001', 2) }),
    cd({ property: at('456 Somewhere Ave, Anytown, ST 12345') }),
    doc('appraisal', { property: at('456 Somewhere Ave.  Anytown ST 12345') }),
  );
  t.deepEqual(check('DOC-011', loan), []);
});

test('DOC-011 fires when the appraisal names another property', (t) => {
  const loan = loanFile(
    doc('note', { property: at('456 Somewhere Avenue, Anytown, ST 12345') }, { filename: 'note.pdf' }),
    cd({ property: at('456 Somewhere Ave, Anytown, ST 12345') }),
    doc('appraisal', { property: at('465 Somewhere Ave, Anytown, ST 12345', 3) }, { filename: 'appraisal.pdf' }),
  );
  const hits = check('DOC-011', loan);
  t.is(hits.length, 1);
  t.is(
    hits[0]?.summary,
    'The property address differs between documents: Note (note.pdf, p.1) gives the property as 456 Somewhere Avenue, Anytown, ST 12345; Closing Disclosure (cd.pdf, p.1) 456 Somewhere Ave, Anytown, ST 12345; Appraisal (appraisal.pdf, p.3) 465 Somewhere Ave, Anytown, ST 12345.',
  );
});

test('one property: every address is the longest cut short, so any two agree; one that departs anywhere breaks it', (t) => {
  t.true(oneProperty(['456 Somewhere Ave', '456 Somewhere Avenue, Anytown', '456 SOMEWHERE AVE ANYTOWN ST 12345']));
  t.false(oneProperty(['456 Somewhere Ave, Anytown', '456 Somewhere Ave, Othertown', '456 Somewhere Ave']));
  t.false(oneProperty(['456 Somewhere Ave', '']), 'an address with no words names nothing');
  t.true(oneProperty([]));
});

test('DOC-011 over 3,000 Notes: one property is no finding; one that differs lists 20 and counts the rest', (t) => {
  const notes: LoanDocument[] = Array.from({ length: 3_000 }, (_, i) =>
    doc(
      'note',
      { property: at(i % 2 ? '456 Somewhere Avenue, Anytown, ST 12345' : '456 Somewhere Ave') },
      { filename: `n${i}.pdf` },
    ),
  );
  t.deepEqual(check('DOC-011', loanFile(...notes)), []);
  notes.push(doc('appraisal', { property: at('465 Somewhere Ave') }, { filename: 'appraisal.pdf' }));
  const [hit] = check('DOC-011', loanFile(...notes));
  t.regex(
    hit?.summary ?? '',
    /^The property address differs between documents: Note \(n0\.pdf, p\.1\) gives the property as 456 Somewhere Ave; /,
  );
  t.regex(hit?.summary ?? '', /; and 2981 more\.$/);
});

test('DOC-011 compares the final Closing Disclosure, not an earlier one', (t) => {
  const loan = loanFile(
    doc('note', { property: at('456 Somewhere Ave') }),
    cd({ dateIssued: at('2026-03-01'), property: at('999 Wrong St') }, 'cd-1.pdf'),
    cd({ dateIssued: at('2026-03-10'), property: at('456 Somewhere Avenue') }, 'cd-2.pdf'),
  );
  t.deepEqual(check('DOC-011', loan), []);
});

test('DOC-011 does not fire when fewer than two documents give an address', (t) => {
  t.deepEqual(
    check('DOC-011', loanFile(doc('note', { property: at('456 Somewhere Ave') }), cd({}), doc('appraisal', {}))),
    [],
  );
});

// ---- DOC-012 -----------------------------------------------------------------------------------------

const terms: Partial<ClosingDisclosureFields> = {
  loanAmount: at(16_200_000),
  interestRate: at(0.03875),
  monthlyPrincipalAndInterest: at(76_178),
  loanTermMonths: at(360),
  product: at('Fixed Rate'),
  loanType: at('Conventional'),
  prepaymentPenalty: at(false),
  balloonPayment: at(false),
};

test('DOC-012 fires when two Closing Disclosures issued the same day disagree on loan terms', (t) => {
  const loan = loanFile(
    cd({ ...terms, dateIssued: at('2026-03-01') }, 'cd-a.pdf'),
    cd(
      {
        ...terms,
        dateIssued: at('2026-03-01'),
        loanAmount: at(16_500_000),
        interestRate: at(0.04),
        product: at('FIXED RATE'),
      },
      'cd-b.pdf',
    ),
  );
  const hits = check('DOC-012', loan);
  t.deepEqual(hits, [
    {
      subject: '2026-03-01',
      summary:
        'Both Closing Disclosures are dated 2026-03-01: Closing Disclosure (cd-a.pdf, p.1) and Closing Disclosure (cd-b.pdf, p.1) disagree on Loan Amount $162,000.00 (p.1) against $165,000.00 (p.1) and Interest Rate 3.875% (p.1) against 4% (p.1).',
    },
  ]);
});

test('DOC-012 fires when two undated Closing Disclosures disagree, with subject "undated"', (t) => {
  const loan = loanFile(
    cd({ ...terms }, 'cd-a.pdf'),
    cd({ ...terms, prepaymentPenalty: at(true, 1), balloonPayment: at(true, 1) }, 'cd-b.pdf'),
  );
  const hits = check('DOC-012', loan);
  t.is(hits[0]?.subject, 'undated');
  t.regex(
    hits[0]?.summary ?? '',
    /^Neither Closing Disclosure is dated: .* disagree on Prepayment Penalty no \(p\.1\) against yes \(p\.1\) and Balloon Payment no/,
  );
});

test('DOC-012 fires when an undated ("corrected") Closing Disclosure disagrees with a dated one: neither is dated later', (t) => {
  const loan = loanFile(
    cd({ ...terms, dateIssued: at('2026-03-01'), loanId: at('123456789') }, 'cd.pdf'),
    cd({ ...terms, loanAmount: at(15_000_000), loanId: at('123456789') }, 'cd-corrected.pdf'),
  );
  t.deepEqual(check('DOC-012', loan), [
    {
      subject: '2026-03-01',
      summary:
        'A Closing Disclosure dated 2026-03-01 and an undated one: neither is dated later: Closing Disclosure (cd.pdf, p.1) and Closing Disclosure (cd-corrected.pdf, p.1), undated, disagree on Loan Amount $162,000.00 (p.1) against $150,000.00 (p.1).',
    },
  ]);
});

test('DOC-012 does not compare the Closing Disclosures of two loans (different Loan IDs)', (t) => {
  const loan = loanFile(
    cd({ ...terms, loanId: at('111') }),
    cd({ ...terms, loanId: at('222'), loanAmount: at(15_000_000) }),
  );
  t.deepEqual(check('DOC-012', loan), []);
});

test('DOC-012 does not fire when the later-dated Closing Disclosure changes the terms', (t) => {
  const loan = loanFile(
    cd({ ...terms, dateIssued: at('2026-03-01') }),
    cd({ ...terms, dateIssued: at('2026-03-05'), loanAmount: at(16_500_000) }),
  );
  t.deepEqual(check('DOC-012', loan), []);
});

test('DOC-012 does not fire when same-day Closing Disclosures agree', (t) => {
  const loan = loanFile(
    cd({ ...terms, dateIssued: at('2026-03-01') }),
    cd({ ...terms, dateIssued: at('2026-03-01'), product: at('fixed  rate') }),
  );
  t.deepEqual(check('DOC-012', loan), []);
});

test('DOC-012 does not fire when one of the Closing Disclosures lacks the terms', (t) => {
  const loan = loanFile(cd({ ...terms, dateIssued: at('2026-03-01') }), cd({ dateIssued: at('2026-03-01') }));
  t.deepEqual(check('DOC-012', loan), []);
});
