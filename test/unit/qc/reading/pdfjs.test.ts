// pdf.js's legacy build brings core-js, which adds what Node 20 lacks and also replaces builtins Node
// has (pdfjs.ts): those are put back, so that every push in a reading thread runs the runtime's own.
// core-js makes its replacements print as native code, so the runtime's own are taken here before
// pdf.js is loaded (this file imports nothing that loads it) and compared by identity.
import test from 'ava';
import { pdf } from '../../../support/fixtures.js';

const runtime = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
const { openPdf } = await import('../../../../src/qc/reading/pdfjs.js');

test("with pdf.js loaded, Array.prototype.push and JSON's parse and stringify are the runtime's own", async (t) => {
  const doc = await openPdf(await pdf('Loan Estimate'));
  await doc.destroy();
  t.is(Array.prototype.push, runtime.push);
  t.is(JSON.parse, runtime.parse);
  t.is(JSON.stringify, runtime.stringify);
});

test('what pdf.js needs of a newer runtime is there, and it reads a page', async (t) => {
  t.is(typeof Reflect.get(ArrayBuffer.prototype, 'transferToFixedLength'), 'function');
  t.is(typeof Reflect.get(Promise, 'withResolvers'), 'function');
  const doc = await openPdf(await pdf('Loan Estimate\nLoan Amount $200,000'));
  try {
    const page = await doc.getPage(1);
    const content = await page.getTextContent();
    const text = content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
    t.regex(text, /Loan Amount \$200,000/);
  } finally {
    await doc.destroy();
  }
});
