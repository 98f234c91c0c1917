// The engine over a whole package: files read several at a time, reported in upload order, every rule
// run over the loan file they make together.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { analyseDocuments, type DocumentToAnalyse } from '../src/qc/analyse.js';
import { corruptPdf, pdf } from './support/fixtures.js';

const corpus = new URL('../../shared/corpus/cfpb/', import.meta.url);

test('files read three at a time come back in upload order, an unreadable one listed, each counted once', async (t) => {
  const bytes = new Map<string, Uint8Array>([
    ['cd.pdf', readFileSync(new URL('cd_sample_fixed_rate_h25b.pdf', corpus))],
    ['broken.pdf', corruptPdf],
    ['note.pdf', await pdf('NOTE')],
    ['le.pdf', readFileSync(new URL('le_sample_fixed_rate_h24b.pdf', corpus))],
    ['letter.pdf', await pdf('Dear borrower, thank you for your application.')],
  ]);
  const docs: DocumentToAnalyse[] = [...bytes.keys()].map((name, i) => ({ id: String(i), filename: name, mime: 'application/pdf', objectKey: name }));
  const counted: number[] = [];
  const analysis = await analyseDocuments(docs, async (key) => bytes.get(key)!, (n) => counted.push(n), { concurrency: 3 });

  t.deepEqual(
    analysis.documents.map((d) => [d.filename, d.classes, d.unreadable === null]),
    [
      ['cd.pdf', ['closing_disclosure'], true],
      ['broken.pdf', [], false],
      ['note.pdf', ['note'], true],
      ['le.pdf', ['loan_estimate'], true],
      ['letter.pdf', ['other'], true],
    ],
  );
  t.deepEqual(analysis.loan.documents.map((d) => d.filename), ['cd.pdf', 'note.pdf', 'le.pdf', 'letter.pdf']);
  t.deepEqual(counted, [1, 2, 3, 4, 5]);
  t.true(analysis.primaryPresent);
  t.false(analysis.nothingReadable);
  const doc009 = analysis.findings.find((f) => f.code === 'DOC-009');
  t.regex(doc009?.summary ?? '', /letter\.pdf/);
  t.regex(doc009?.summary ?? '', /broken\.pdf \(could not be read/);
});

test('a package of which nothing can be read says so (the review fails)', async (t) => {
  const analysis = await analyseDocuments([{ id: '1', filename: 'broken.pdf', mime: 'application/pdf', objectKey: 'k' }], async () => corruptPdf);
  t.true(analysis.nothingReadable);
  t.false(analysis.primaryPresent);
});
