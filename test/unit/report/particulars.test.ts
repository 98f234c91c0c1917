// Page 1's particulars: each fact of the loan from the document that binds it, with where it was
// printed; a fact no document printed is left for page 1 to call missing; every file with what was found.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { analyseDocuments } from '../../../src/qc/analyse.js';
import type { AnalysedFile } from '../../../src/qc/analyse.js';
import { particularsOf } from '../../../src/report/particulars.js';
import { at, doc, loanFile } from '../../support/loan-file.js';

const corpus = new URL('../../corpus/cfpb/', import.meta.url);
const file = (filename: string, o: Partial<AnalysedFile> = {}): AnalysedFile => ({
  id: filename,
  filename,
  classes: [],
  unreadable: null,
  pages: 1,
  ...o,
});

test(
  'the CFPB sample Loan Estimate and Closing Disclosure: every fact as the final CD prints it, ' + 'on its page',
  async (t) => {
    const names = ['le_sample_fixed_rate_h24b.pdf', 'cd_sample_fixed_rate_h25b.pdf'];
    const analysis = await analyseDocuments(
      names.map((filename) => ({ id: filename, filename, mime: 'application/pdf', objectKey: filename })),
      async (name) => new Uint8Array(readFileSync(new URL(name, corpus))),
    );
    const p = particularsOf(analysis);
    const cd = 'cd_sample_fixed_rate_h25b.pdf';
    t.deepEqual(p.glance, [
      { label: 'Borrower', value: 'Michael Jones and Mary Stone', document: cd, page: 2 },
      { label: 'Property', value: '456 Somewhere Ave, Anytown, ST 12345', document: cd, page: 2 },
      { label: 'Loan amount', value: '$162,000.00', document: cd, page: 2 },
      { label: 'Interest rate', value: '3.875%', document: cd, page: 2 },
      { label: 'Loan term', value: '30 years', document: cd, page: 2 },
      { label: 'Closing date', value: '15 April 2013', document: cd, page: 2 },
      { label: 'Lender', value: 'Ficus Bank', document: cd, page: 2 },
    ]);
    t.deepEqual(p.documents, [
      { file: 'le_sample_fixed_rate_h24b.pdf', found: ['Loan Estimate'], pages: 4, unreadable: null },
      { file: cd, found: ['Closing Disclosure'], pages: 6, unreadable: null },
    ]);
  },
);

test(
  'without a Closing Disclosure the Note, the Loan Estimate and the settlement statement speak, ' +
    'the Note before the estimate',
  (t) => {
    const note = doc(
      'note',
      { principal: at(25_000_000, 1), interestRate: at(0.0625, 1), borrower: at('Ana  Lopez', 1) },
      { filename: 'note.pdf' },
    );
    const le = doc(
      'loan_estimate',
      {
        fees: [],
        loanAmount: at(24_000_000, 1),
        loanTermMonths: at(180, 1),
        lender: at('Ficus Bank', 1),
        property: at('1 Elm St, Town, ST 11111', 1),
      },
      { filename: 'le.pdf' },
    );
    const hud = doc('settlement_statement', { settlementDate: at('2012-06-01', 3) }, { filename: 'hud.pdf' });
    const p = particularsOf({
      loan: loanFile(le, note, hud),
      documents: [file('le.pdf'), file('note.pdf'), file('hud.pdf', { pages: 3 })],
    });
    t.deepEqual(p.glance, [
      { label: 'Borrower', value: 'Ana Lopez', document: 'note.pdf', page: 1 },
      { label: 'Property', value: '1 Elm St, Town, ST 11111', document: 'le.pdf', page: 1 },
      // The Note is the loan as signed: its principal before the Loan Estimate's estimate.
      { label: 'Loan amount', value: '$250,000.00', document: 'note.pdf', page: 1 },
      { label: 'Interest rate', value: '6.25%', document: 'note.pdf', page: 1 },
      { label: 'Loan term', value: '15 years', document: 'le.pdf', page: 1 },
      { label: 'Closing date', value: '1 June 2012', document: 'hud.pdf', page: 3 },
      { label: 'Lender', value: 'Ficus Bank', document: 'le.pdf', page: 1 },
    ]);
  },
);

test(
  'a value read from another file of a form sent page by page is cited in that file; what no ' +
    'document printed is left out; unreadable files are listed with why',
  (t) => {
    const cd = doc(
      'closing_disclosure',
      { fees: [], loanAmount: { value: 10_000_000, page: 1, file: 'cd-page-1.jpg' }, loanTermMonths: at(100, 1) },
      { filename: 'cd-page-1.jpg' },
    );
    const p = particularsOf({
      loan: loanFile(cd),
      documents: [
        file('cd-page-1.jpg', { classes: ['closing_disclosure', 'closing_disclosure'] }),
        file('blurry.jpg', { unreadable: 'no text could be made out', pages: 0 }),
      ],
    });
    t.deepEqual(p.glance, [
      { label: 'Loan amount', value: '$100,000.00', document: 'cd-page-1.jpg', page: 1 },
      { label: 'Loan term', value: '100 months', document: 'cd-page-1.jpg', page: 1 },
    ]);
    t.deepEqual(p.documents, [
      { file: 'cd-page-1.jpg', found: ['Closing Disclosure'], pages: 1, unreadable: null },
      { file: 'blurry.jpg', found: [], pages: 0, unreadable: 'no text could be made out' },
    ]);
  },
);
