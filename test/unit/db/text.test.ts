// Text PostgreSQL can hold: no NUL, no unpaired surrogate. Requests carrying such text are refused (the
// API tests); text read from a document (a working document's comment) keeps its words, the rest replaced.
import test from 'ava';
import { PDFDocument } from 'pdf-lib';
import { isStorableText, storableText } from '../../../src/db/text.js';
import { readWorkingDocumentFields } from '../../../src/working-document/marker.js';

test('NUL and unpaired surrogates are not storable; surrogate pairs, accents and controls other than NUL are', (t) => {
  for (const bad of ['a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800', 'end\ud83d'])
    t.false(isStorableText(bad), JSON.stringify(bad));
  for (const good of ['', 'résumé', 'Smith 🏠', 'tab\there', '\u202Efdp', '\ud83d\ude00'])
    t.true(isStorableText(good), JSON.stringify(good));
  t.is(storableText('a\u0000b\ud800c 🏠'), 'a\uFFFDb\uFFFDc 🏠');
});

test('a working document comment holding a NUL is read with the NUL replaced, its words kept', async (t) => {
  const doc = await PDFDocument.create();
  doc.addPage();
  const field = doc.getForm().createTextField('finding.APR-001.comment');
  field.setText('Cured\u0000 at closing');
  const values = await readWorkingDocumentFields(await doc.save());
  t.is(values.get('finding.APR-001.comment'), 'Cured\uFFFD at closing');
});
