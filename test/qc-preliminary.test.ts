// The preliminary analysis the workflow runs until the full rule catalog lands: classification by the
// titles printed on a document (the CFPB samples included, cover sheets and all) and the documentation
// rules that need only the classes (DOC-001, DOC-002, DOC-009).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { classifyByTitle } from '../src/qc/classify.js';
import { readPdfText } from '../src/qc/document-text.js';
import { hasPrimaryDocument, preliminaryFindings } from '../src/qc/preliminary.js';
import { corruptPdf, pdf } from './support/fixtures.js';

const corpus = new URL('../../shared/corpus/cfpb/', import.meta.url);

for (const [file, expected] of [
  ['cd_sample_fixed_rate_h25b.pdf', 'closing_disclosure'],
  ['cd_sample_refi_excess_cost_h25f1.pdf', 'closing_disclosure'],
  ['le_sample_fixed_rate_h24b.pdf', 'loan_estimate'],
  ['le_sample_arm_interest_only_h24c.pdf', 'loan_estimate'],
] as const) {
  test(`the CFPB sample ${file} is classified ${expected}`, async (t) => {
    const text = await readPdfText(readFileSync(new URL(file, corpus)));
    t.true(text.readable);
    if (text.readable) t.is(classifyByTitle(text.pages), expected);
  });
}

test('titles decide the class; prose that merely mentions a form does not come first', async (t) => {
  const classOf = async (title: string) => {
    const text = await readPdfText(await pdf(title));
    return text.readable ? classifyByTitle(text.pages) : 'unreadable';
  };
  t.is(await classOf('NOTE'), 'note');
  t.is(await classOf('DEED OF TRUST'), 'security_instrument');
  t.is(await classOf('Uniform Residential Loan Application'), 'urla');
  t.is(await classOf('Uniform Residential Appraisal Report'), 'appraisal');
  t.is(await classOf('Earnings Statement'), 'pay_stub');
  t.is(await classOf('Form W-2 Wage and Tax Statement'), 'w2');
  t.is(await classOf('Note: bring two forms of ID'), 'other');
  t.is(classifyByTitle(['Cover sheet', 'Loan Estimate', 'see also the Closing Disclosure']), 'loan_estimate');
});

test('a PDF that cannot be parsed is unreadable, not an exception', async (t) => {
  const text = await readPdfText(corruptPdf);
  t.false(text.readable);
});

test('one DOC-001 per missing core document, DOC-002 without an appraisal, DOC-009 naming unclassified files', (t) => {
  const findings = preliminaryFindings([
    { filename: 'cd.pdf', documentClass: 'closing_disclosure', unreadable: null },
    { filename: 'note.pdf', documentClass: 'note', unreadable: null },
    { filename: 'scan.png', documentClass: 'other', unreadable: null },
  ]);
  t.deepEqual(findings.map((f) => f.key), ['DOC-001:security_instrument', 'DOC-001:loan_estimate', 'DOC-001:urla', 'DOC-002', 'DOC-009']);
  t.deepEqual(findings.map((f) => f.severity), ['critical', 'critical', 'critical', 'high', 'low']);
  t.regex(findings.at(-1)!.summary, /1 document\(s\) could not be classified: scan\.png\./);
  t.true(hasPrimaryDocument([{ filename: 'le.pdf', documentClass: 'loan_estimate', unreadable: null }]));
  t.false(hasPrimaryDocument([{ filename: 'w2.pdf', documentClass: 'w2', unreadable: null }]));
});

test('a complete package has no preliminary finding', (t) => {
  const classes = ['note', 'security_instrument', 'closing_disclosure', 'loan_estimate', 'urla', 'appraisal'] as const;
  t.deepEqual(preliminaryFindings(classes.map((c) => ({ filename: `${c}.pdf`, documentClass: c, unreadable: null }))), []);
});
