// The URLA's employment: a business owner, a self-employed or a retired borrower earns no wages, so DOC-003
// asks none of them for pay stubs; read from AcroForm check boxes, typed marks, or a scan's boxes.
import test from 'ava';
import { extractUrla } from '../../../../src/qc/extract/urla.js';
import { PageLayout } from '../../../../src/qc/reading/layout.js';
import type { TextItem } from '../../../../src/qc/reading/page.js';

/** One OCR line of words, left to right, as a scan's page gives it. */
function ocrLine(...words: string[]): PageLayout {
  let x = 40;
  const items: TextItem[] = words.map((text) => {
    const item = { text, x, y: 600, width: text.length * 5, height: 9 };
    x += text.length * 5 + 4;
    return item;
  });
  return new PageLayout(1, items, 'ocr');
}

test(
  "a scan's marked box (found in its pixels) says whether the borrower is employed, self-employed " + 'or retired',
  (t) => {
    t.is(extractUrla([ocrLine('☒', 'Retired')], []).wageEarner?.value, false);
    t.is(extractUrla([ocrLine('☐', 'Retired', '☒', 'Employed')], []).wageEarner?.value, true);
    t.is(extractUrla([ocrLine('☒', 'Self-Employed')], []).wageEarner?.value, false);
    t.is(extractUrla([ocrLine('☐', 'Retired', '☐', 'Employed')], []).wageEarner, undefined, 'no mark, no answer');
  },
);

test('an AcroForm retired box checked makes the borrower no wage earner; unchecked it says nothing', (t) => {
  t.is(extractUrla([], [{ name: 'Borrower.Retired', value: 'Yes', page: 1 }]).wageEarner?.value, false);
  t.is(extractUrla([], [{ name: 'Borrower.Retired', value: 'Off', page: 1 }]).wageEarner, undefined);
  t.is(
    extractUrla(
      [],
      [
        { name: 'Borrower.Retired', value: 'Off', page: 1 },
        { name: 'Borrower.Employed', value: true, page: 1 },
      ],
    ).wageEarner?.value,
    true,
  );
});
