// Which language a page's words are in, as far as OCR needs to know: an English model reads a Spanish
// form (the H-28 Loan Estimate and Closing Disclosure) with its accents lost and its words mangled
// ("30 años" → "30 2/705"), so such a page is read again with the Spanish model.

/** The languages OCR has a model for; `eng` reads everything not plainly Spanish. */
export type OcrLanguage = 'eng' | 'spa';

// Short function words, which every page of running text is full of and which an English model still
// reads in a Spanish text (they are plain ASCII), and a few words of the forms themselves. Words that are
// also English or common in Hispanic names alone ("de", "la") count, but only against the English ones.
const SPANISH = new Set(
  (
    'de del la las los el su sus por para que con una en es al se usted este esta estos sobre como mas ' +
    'más pago préstamo prestamo costos tasa interés interes años anos mensual fecha cierre monto'
  ).split(' '),
);
const ENGLISH = new Set(
  (
    'the of and to your you for this with is are on be or by if will at an as from loan payment costs ' +
    'rate interest years monthly date closing amount'
  ).split(' '),
);

/**
 * Spanish when a page's words hold clearly more Spanish than English function words: at least 12, and
 * three times as many. A page in English with a few Spanish names or a bilingual notice stays English.
 */
export function languageOf(words: readonly string[]): OcrLanguage {
  let spanish = 0;
  let english = 0;
  for (const word of words) {
    const w = word.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
    if (SPANISH.has(w)) spanish++;
    else if (ENGLISH.has(w)) english++;
  }
  return spanish >= 12 && spanish >= 3 * english ? 'spa' : 'eng';
}
