// Long documents keep their tails: an appraisal report with its addenda, photo pages, maps, sketch,
// certification and invoice is one appraisal; a Note keeps its riders, addendum and allonge; a Deed of
// Trust its legal description and riders (each rider numbered on its own). Alone and between other forms
// in one loan file, every page lands in its own document, and the addenda change no field the form reads.
import test from 'ava';
import { analyseFile } from '../../src/qc/logical-documents.js';
import { terminatePdfThreads } from '../../src/qc/reading/pdf-threads.js';
import { pagesSplitRight } from '../support/bundles.js';
import {
  appraisalWithAddenda,
  deedWithExhibitsAndRiders,
  loanFileWithLongDocuments,
  longBundle,
  noteWithRiders,
  type LongDocument,
} from '../support/long-documents.js';

test.after.always(() => terminatePdfThreads());

const documentsOf = async (parts: readonly (LongDocument | string)[]) => {
  const bundle = await longBundle(parts);
  const { documents } = await analyseFile('loan-file.pdf', 'application/pdf', bundle.bytes);
  return { bundle, documents };
};

for (const [make, documentClass] of [
  [appraisalWithAddenda, 'appraisal'],
  [noteWithRiders, 'note'],
  [deedWithExhibitsAndRiders, 'security_instrument'],
] as const) {
  const long = make();
  test(`${long.name}: its ${long.pages.length} pages are one ${documentClass}`, async (t) => {
    const { documents } = await documentsOf([long]);
    t.deepEqual(
      documents.map((d) => [d.documentClass, d.pages.length]),
      [[documentClass, long.pages.length]],
    );
  });
}

test('a loan file with the long documents between other forms splits at every true boundary', async (t) => {
  const { bundle, documents } = await documentsOf(loanFileWithLongDocuments());
  const documentOf = new Map(documents.flatMap((d, i) => d.pages.map((p) => [p.number, i] as const)));
  t.is(pagesSplitRight(bundle.pages, documentOf), bundle.pages.length);
  t.deepEqual(
    documents.map((d) => d.documentClass),
    ['closing_disclosure', 'appraisal', 'loan_estimate', 'note', 'security_instrument', 'pay_stub'],
  );
});

test("the appraisal's addenda change none of the fields its form pages give", async (t) => {
  const whole = appraisalWithAddenda();
  const { documents: formOnly } = await documentsOf([{ name: 'form', pages: whole.pages.slice(0, whole.formPages) }]);
  const { documents: withAddenda } = await documentsOf([whole]);
  t.like(formOnly[0]!.fields, {
    property: { value: '41 Elm St, Columbus, OH 43215' },
    value: { value: 31_000_000 },
    effectiveDate: { value: '2024-03-15' },
  });
  t.deepEqual(withAddenda[0]!.fields, formOnly[0]!.fields);
});
