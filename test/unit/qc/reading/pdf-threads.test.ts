// pdf.js runs in worker threads with time budgets (reading/pdf-threads.ts): a PDF built to stall the
// parser costs one page, not the file, and never the main thread, where activities heartbeat.
import test from 'ava';
import { PDFArray, PDFDocument, PDFName, PDFNumber, StandardFonts, type PDFRef } from 'pdf-lib';
import { readFile } from '../../../../src/qc/reading/document.js';
import {
  configurePdfThreads,
  DEFAULT_PDF_THREAD_SETTINGS,
  MAX_PDF_PAGES,
  readPdf,
  terminatePdfThreads,
} from '../../../../src/qc/reading/pdf-threads.js';
import { ocrPdfPages } from '../../../../src/qc/reading/ocr.js';
import { onThisMachine } from '../../../support/machine-load.js';

test.after.always(() => terminatePdfThreads());

/**
 * Three pages, the second a content stream of `runs` one-character text runs, each on a line of its own:
 * 6M of them deflate to about 160 KB, and pdf.js needs 10 s or more (here, warm) to turn them into text,
 * and longer to draw them. Every budget the tests set is a fraction of that.
 */
async function pdfWithStallingPage(runs: number, stallingPages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Loan Estimate page one: Loan Amount $162,000', { x: 40, y: 700, size: 12, font });
  let content: PDFRef | undefined;
  for (let i = 0; i < stallingPages; i++) {
    const stalling = doc.addPage([612, 792]);
    const key = stalling.node.newFontDictionary('F', font.ref).asString();
    // One stream serves every stalling page: the file stays small however many there are.
    content ??= doc.context.register(
      doc.context.flateStream(`BT ${key} 1 Tf 10 780 Td ${'(a)Tj 0 -2 Td '.repeat(runs)}ET`),
    );
    stalling.node.addContentStream(content);
  }
  doc.addPage([612, 792]).drawText('Loan Estimate last page: Interest Rate 3.875%', { x: 40, y: 700, size: 12, font });
  return doc.save();
}

/** The longest the main thread's event loop went without running a 20 ms timer while `work` ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = Date.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = Date.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 20);
  try {
    const result = await work();
    return { result, stallMs: Math.max(stallMs, Date.now() - last) };
  } finally {
    clearInterval(ticker);
  }
}

let stalling: Promise<Uint8Array> | undefined;
const stallingPdf = () => (stalling ??= pdfWithStallingPage(6_000_000));

test.serial(
  'a page that overruns its reading budget is illegible; the pages around it are read, and the main thread never waits',
  async (t) => {
    const bytes = await stallingPdf();
    const previous = configurePdfThreads({ pageTimeoutMs: 2_000 });
    try {
      const { result: read, stallMs } = await longestStall(() => readFile(bytes, 'application/pdf'));
      if (!read.readable) return t.fail(read.reason);
      t.deepEqual(
        read.pages.map((p) => [p.number, p.source, p.confidence]),
        [
          [1, 'text_layer', null],
          [2, 'ocr', 0],
          [3, 'text_layer', null],
        ],
      );
      t.regex(read.pages[0]!.text, /Loan Amount \$162,000/);
      t.is(read.pages[1]!.text, '');
      t.regex(read.pages[2]!.text, /Interest Rate 3\.875%/);
      t.log(`longest main-thread stall ${stallMs} ms`);
      t.true(stallMs < onThisMachine(1_000), `the main thread stalled ${stallMs} ms`);
    } finally {
      configurePdfThreads(previous);
    }
  },
);

test.serial('a file that overruns its whole budget keeps the pages read in time; the rest are illegible', async (t) => {
  const bytes = await stallingPdf();
  // The stalling page uses up the file's budget before its own runs out: page 3 is never asked for.
  const previous = configurePdfThreads({ pageTimeoutMs: 60_000, fileTimeoutMs: 4_000 });
  try {
    const read = await readFile(bytes, 'application/pdf');
    if (!read.readable) return t.fail(read.reason);
    t.deepEqual(
      read.pages.map((p) => [p.number, p.source, p.confidence]),
      [
        [1, 'text_layer', null],
        [2, 'ocr', 0],
        [3, 'ocr', 0],
      ],
    );
  } finally {
    configurePdfThreads(previous);
  }
});

test.serial('a page that overruns its render budget is illegible to OCR; the next page still renders', async (t) => {
  const bytes = await stallingPdf();
  // The stalling page needs over 20 s to render; 6 s leaves page 3 (a fresh thread under a loaded suite) room.
  const previous = configurePdfThreads({ renderTimeoutMs: 6_000 });
  try {
    const read = await ocrPdfPages(bytes, [2, 3]);
    if (!read.readable) return t.fail(read.reason);
    t.is(read.pages[0]!.confidence, 0);
    t.is(read.pages[0]!.text, '');
    t.regex(read.pages[1]!.text, /Interest Rate 3\.875%/);
  } finally {
    configurePdfThreads(previous);
  }
});

test.serial(
  'after three pages over budget the rest of the file is given up: its pages are illegible at once',
  async (t) => {
    const bytes = await pdfWithStallingPage(6_000_000, 4);
    const previous = configurePdfThreads({ pageTimeoutMs: 1_500 });
    try {
      const read = await readPdf(bytes);
      if (!read.readable) return t.fail(read.reason);
      // Page 5 stalls like the three before it but is never asked for; page 6 is readable but given up.
      t.deepEqual(
        read.pages.map((p) => [p.number, p.source]),
        [
          [1, 'text_layer'],
          [2, 'ocr'],
          [3, 'ocr'],
          [4, 'ocr'],
          [5, 'ocr'],
          [6, 'ocr'],
        ],
      );
      t.regex(read.pages[0]!.text, /Loan Amount \$162,000/);
    } finally {
      configurePdfThreads(previous);
    }
  },
);

test(`a PDF whose page tree claims more than ${MAX_PDF_PAGES} pages is unreadable`, async (t) => {
  // One page, listed 1,000 times by a node that the root lists 1,000 times: a million pages in 1 KB,
  // each of which pdf.js would find.
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).drawText('Closing Disclosure');
  const page = doc.getPage(0).ref;
  const { context } = doc;
  const middle = context.register(context.obj({ Type: 'Pages', Kids: Array<PDFRef>(1_000).fill(page), Count: 1_000 }));
  doc.getPage(0).node.set(PDFName.of('Parent'), middle);
  const root = doc.catalog.Pages();
  root.set(PDFName.of('Kids'), PDFArray.withContext(context));
  for (let i = 0; i < 1_000; i++) (root.get(PDFName.of('Kids')) as PDFArray).push(middle);
  root.set(PDFName.of('Count'), PDFNumber.of(1_000_000));
  const read = await readPdf(await doc.save({ useObjectStreams: false }));
  t.deepEqual(read, {
    readable: false,
    reason: `the PDF has 1000000 pages, more than the ${MAX_PDF_PAGES} read from one file`,
  });
});

for (const [allowance, limit] of [
  ['text runs', { fileItems: 2 }],
  ['characters', { fileChars: 40 }],
] as const) {
  test.serial(
    `past its allowance of ${allowance} a file is read no further: the pages left are illegible`,
    async (t) => {
      const doc = await PDFDocument.create();
      for (let n = 1; n <= 3; n++)
        doc.addPage([612, 792]).drawText(`Page ${n}: Loan Amount $162,000`, { x: 40, y: 700 });
      const previous = configurePdfThreads(limit);
      try {
        const read = await readPdf(await doc.save());
        if (!read.readable) return t.fail(read.reason);
        // One run of 28 characters a page: two pages reach the allowance, the third is not read.
        t.deepEqual(
          read.pages.map((p) => [p.number, p.source, p.text.length]),
          [
            [1, 'text_layer', 28],
            [2, 'text_layer', 28],
            [3, 'ocr', 0],
          ],
        );
      } finally {
        configurePdfThreads(previous);
      }
    },
  );
}

test('a reading whose signal is aborted begins no page and reads no form value: each page is illegible', async (t) => {
  const doc = await PDFDocument.create();
  for (let n = 1; n <= 3; n++) doc.addPage([612, 792]).drawText(`Page ${n}: Loan Amount $162,000`, { x: 40, y: 700 });
  const field = doc.getForm().createTextField('loan.amount');
  field.setText('162000');
  field.addToPage(doc.getPage(0), { x: 40, y: 600, width: 120, height: 20 });
  const bytes = await doc.save();
  const read = await readPdf(bytes);
  if (!read.readable) return t.fail(read.reason);
  t.deepEqual(
    read.pages.map((p) => p.source),
    ['text_layer', 'text_layer', 'text_layer'],
  );
  t.deepEqual(
    read.formFields.map((f) => f.value),
    ['162000'],
  );

  const stopped = await readPdf(bytes, Infinity, AbortSignal.abort());
  if (!stopped.readable) return t.fail(stopped.reason);
  t.deepEqual(
    stopped.pages.map((p) => [p.number, p.source, p.text]),
    [
      [1, 'ocr', ''],
      [2, 'ocr', ''],
      [3, 'ocr', ''],
    ],
  );
  t.deepEqual(stopped.formFields, []);
  // Nor are pages handed to OCR rendered.
  const recognised = await ocrPdfPages(bytes, [1, 2], Infinity, { signal: AbortSignal.abort() });
  if (!recognised.readable) return t.fail(recognised.reason);
  t.deepEqual(
    recognised.pages.map((p) => [p.number, p.confidence]),
    [
      [1, 0],
      [2, 0],
    ],
  );
});

test('the budgets must be positive', (t) => {
  t.throws(() => configurePdfThreads({ pageTimeoutMs: 0 }), { instanceOf: RangeError });
  t.deepEqual(configurePdfThreads({}), DEFAULT_PDF_THREAD_SETTINGS);
});
