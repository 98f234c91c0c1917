// Whole loan files assembled from every corpus document that copies into another PDF, in seeded orders,
// some behind a fax cover sheet: at least 98% of their pages land in the document they came from (a page
// lands right when its document holds exactly the pages of its own).
import test from 'ava';
import { analyseFile } from '../../src/qc/logical-documents.js';
import { terminatePdfThreads } from '../../src/qc/reading/pdf-threads.js';
import { assembleBundles, corpusDocuments, pagesSplitRight } from '../support/bundles.js';

test.after.always(() => terminatePdfThreads());

test('loan files assembled from the corpus’s text documents in ten orders split at least 98% right', async (t) => {
  let right = 0;
  let total = 0;
  for (const seed of [1, 2])
    for (const bundle of await assembleBundles(corpusDocuments('text'), 5, seed)) {
      const { documents } = await analyseFile(bundle.name, 'application/pdf', bundle.bytes);
      const documentOf = new Map(documents.flatMap((d, i) => d.pages.map((p) => [p.number, i] as const)));
      // Every page is in exactly one document: none lost, none twice.
      t.deepEqual(
        documents.flatMap((d) => d.pages.map((p) => p.number)).sort((a, b) => a - b),
        bundle.pages.map((p) => p.page),
      );
      right += pagesSplitRight(bundle.pages, documentOf);
      total += bundle.pages.length;
    }
  t.log(`${right} of ${total} pages split right (${((right * 100) / total).toFixed(1)}%)`);
  t.true(right >= 0.98 * total, `${right} of ${total}`);
});
