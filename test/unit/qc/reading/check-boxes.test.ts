// Check boxes on scanned pages are found in the pixels, whatever OCR made of them ("O", "CJ", "®", nothing).
import test from 'ava';
import {
  CHECKED,
  EMPTY,
  inkImage,
  otsuThreshold,
  withCheckBoxes,
  type OcrWord,
  type PixelBox,
} from '../../../../src/qc/reading/check-boxes.js';
import { languageOf } from '../../../../src/qc/reading/language.js';

const WIDTH = 600;
const HEIGHT = 120;

/** A page of paper on which shapes are drawn in ink. */
function page() {
  const grey = new Uint8Array(WIDTH * HEIGHT).fill(255);
  const fill = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) grey[y * WIDTH + x] = 0;
  };
  return {
    /** A box 30 px wide, its outline 3 px, from (x, 40); marked with an X when `checked`. */
    box(x: number, checked: boolean) {
      fill(x, 40, x + 29, 42);
      fill(x, 67, x + 29, 69);
      fill(x, 40, x + 2, 69);
      fill(x + 27, 40, x + 29, 69);
      if (checked)
        for (let i = 5; i <= 24; i++) {
          fill(x + i, 40 + i, x + i + 1, 41 + i);
          fill(x + 29 - i - 1, 40 + i, x + 29 - i, 41 + i);
        }
    },
    /** A letter-sized ring (an "O" as printed): no straight sides, so no box. */
    ring(x: number) {
      for (let a = 0; a < 360; a += 1) {
        const rad = (a * Math.PI) / 180;
        const cx = Math.round(x + 15 + 14 * Math.cos(rad));
        const cy = Math.round(55 + 14 * Math.sin(rad));
        fill(cx - 1, cy - 1, cx + 1, cy + 1);
      }
    },
    /** Ink standing for a word's letters: strokes, not boxes. */
    letters(x0: number, x1: number) {
      for (let x = x0; x < x1; x += 8) fill(x, 40, x + 2, 69);
    },
    fill,
    image: () => inkImage(grey, WIDTH, HEIGHT),
  };
}

const word = (text: string, x0: number, x1: number, symbols?: [string, number, number][]): OcrWord => ({
  text,
  bbox: { x0, y0: 38, x1, y1: 72 },
  ...(symbols
    ? {
        symbols: symbols.map(([t, a, b]): { text: string; bbox: PixelBox } => ({
          text: t,
          bbox: { x0: a, y0: 38, x1: b, y1: 72 },
        })),
      }
    : {}),
});
const texts = (words: readonly OcrWord[]) => words.map((w) => w.text).join(' ');

test(
  'a marked box OCR lost altogether is stated before its option, and empty boxes OCR read as "O" ' + 'are stated empty',
  (t) => {
    const p = page();
    p.box(100, true);
    p.letters(145, 300);
    p.box(330, false);
    p.letters(375, 430);
    const line = [word('Conventional', 145, 300), word('O', 330, 359), word('FHA', 375, 430)];
    t.is(texts(withCheckBoxes(line, p.image())), `${CHECKED} Conventional ${EMPTY} FHA`);
  },
);

test('a box OCR glued to its option word is cut off it, by the characters standing over the box', (t) => {
  const p = page();
  p.box(100, false);
  p.letters(140, 200);
  const line = [
    word('OFHA', 100, 200, [
      ['O', 100, 129],
      ['F', 140, 158],
      ['H', 160, 180],
      ['A', 182, 200],
    ]),
  ];
  t.is(texts(withCheckBoxes(line, p.image())), `${EMPTY} FHA`);
});

test('a box OCR read as a word of its own ("OD") is the box: the word goes, the option follows it', (t) => {
  const p = page();
  p.box(100, false);
  p.letters(145, 300);
  const line = [
    word('Type', 10, 70),
    word('OD', 100, 129, [
      ['O', 100, 114],
      ['D', 115, 129],
    ]),
    word('Conventional', 145, 300),
  ];
  t.is(texts(withCheckBoxes(line, p.image())), `Type ${EMPTY} Conventional`);
});

test('letters, rings and table rules are not boxes: a line without boxes comes back as OCR read it', (t) => {
  const p = page();
  p.ring(100);
  p.letters(145, 300);
  // A table's rule crossing the strip left of a word, and a vertical rule: cut off by the strip, no box.
  p.fill(0, 30, 599, 32);
  p.fill(380, 20, 382, 100);
  p.letters(400, 500);
  const line = [word('O', 100, 129), word('Conventional', 145, 300), word('Borrower', 400, 500)];
  t.deepEqual(withCheckBoxes(line, p.image()), line);
});

test('a square shape touching the next letter is a letter of the word (a bold "B"), not a box', (t) => {
  const p = page();
  p.box(100, true);
  p.letters(131, 300);
  const line = [
    word('Brightline', 100, 300, [
      ['B', 100, 129],
      ['r', 131, 145],
      ['ightline', 147, 300],
    ]),
  ];
  t.deepEqual(withCheckBoxes(line, p.image()), line);
});

test('a box with a speck in it is neither marked nor empty, and is left as OCR read it', (t) => {
  const p = page();
  p.box(100, false);
  p.fill(110, 50, 113, 54); // about 6% of the inside
  p.letters(145, 300);
  const line = [word('Conventional', 145, 300)];
  t.deepEqual(withCheckBoxes(line, p.image()), line);
});

test('a page of Spanish running text is Spanish; English, or English with Spanish names, is not', (t) => {
  const spanish =
    'Guarde esta Estimación de Préstamo para compararla con su Declaración de Cierre. Antes del ' +
    'cierre, la tasa de interés, los puntos y los créditos del prestamista podrían cambiar, a menos que ' +
    'usted bloquee la tasa de interés. Todos los demás costos de cierre estimados estarán vigentes hasta el';
  const english =
    'Save this Loan Estimate to compare with your Closing Disclosure. Before closing, your interest ' +
    'rate, points, and lender credits can change unless you lock the interest rate. All other estimated ' +
    'closing costs expire on';
  t.is(languageOf(spanish.split(' ')), 'spa');
  t.is(languageOf(english.split(' ')), 'eng');
  t.is(
    languageOf(`${english} Applicants Maria de la Cruz and Jose de los Santos, 12 Calle de la Paz`.split(' ')),
    'eng',
  );
  t.is(languageOf([]), 'eng');
});

test("Otsu's threshold cuts between a page's ink and its paper, so a blurred scan's light grey ink is ink", (t) => {
  // Paper about 235 and ink at 140, lighter than the mid-grey cut of inkImage alone: blurred 150-dpi scans.
  const grey = new Uint8Array(10_000);
  grey.fill(235, 0, 9_000);
  grey.fill(140, 9_000);
  const threshold = otsuThreshold(grey);
  t.true(threshold > 140 && threshold <= 235, `threshold ${threshold}`);
  const ink = inkImage(grey, 100, 100, threshold);
  t.false(ink.ink(0, 0));
  t.true(ink.ink(0, 95));
  t.false(inkImage(grey, 100, 100).ink(0, 95), 'the fixed cut alone misses it');
});
