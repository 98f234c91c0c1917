// A tilted scan's words, as native tesseract boxes them on the tilted image, are set on the straightened
// page: the turn is read from the baselines, and each word's own box is recovered about its turned centre.
import test from 'ava';
import type { HocrLine, ReadWord } from '../../../../src/qc/reading/hocr.js';
import { MIN_SKEW, skewOf, straightened } from '../../../../src/qc/reading/skew.js';

const WIDTH = 1700;
const HEIGHT = 2200;

/** The point of the straight page at (x, y) where it lands on the page scanned turned by `tilt` radians (y down). */
function tilted(x: number, y: number, tilt: number): [number, number] {
  const [cx, cy] = [WIDTH / 2, HEIGHT / 2];
  const [cos, sin] = [Math.cos(tilt), Math.sin(tilt)];
  return [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
}

/**
 * A line of words on a straight page, baseline at `y` with glyphs 30 px tall, scanned turned by `tilt`:
 * each word's box is the upright box around its turned outline, as tesseract reports it.
 */
function scannedLine(y: number, words: [string, number, number][], tilt: number): HocrLine {
  const boxes: ReadWord[] = words.map(([text, x0, x1]) => {
    const corners = [tilted(x0, y - 30, tilt), tilted(x1, y - 30, tilt), tilted(x0, y, tilt), tilted(x1, y, tilt)];
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    return { text, confidence: 90, bbox: { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) } };
  });
  const bbox = {
    x0: Math.min(...boxes.map((b) => b.bbox.x0)),
    y0: Math.min(...boxes.map((b) => b.bbox.y0)),
    x1: Math.max(...boxes.map((b) => b.bbox.x1)),
    y1: Math.max(...boxes.map((b) => b.bbox.y1)),
  };
  // hOCR's baseline: slope, and offset from the box's bottom at its left edge.
  const slope = Math.tan(tilt);
  const [bx, by] = tilted(words[0]![1], y, tilt);
  const offset = by - slope * (bx - bbox.x0) - bbox.y1;
  return { bbox, baseline: { slope, offset }, rowHeight: 40, words: boxes };
}

const LINE: [string, number, number][] = [
  ['Loan', 100, 180],
  ['Amount', 195, 330],
  ['$162,000', 1300, 1480],
];

function page(tilt: number): HocrLine[] {
  return [300, 600, 900, 1200].map((y) => scannedLine(y, LINE, tilt));
}

test('the turn that straightens a page is read from its baselines, either way', (t) => {
  const degree = Math.PI / 180;
  for (const tilt of [1.5 * degree, -1.5 * degree, 4 * degree]) {
    t.true(Math.abs(skewOf(page(tilt)) - -tilt) < 1e-9, `tilt ${tilt}`);
  }
});

test('a straight page, one turned less than MIN_SKEW, or too few lines to tell, is not turned', (t) => {
  t.is(skewOf(page(0)), 0);
  t.is(skewOf(page(MIN_SKEW * 0.8)), 0);
  t.is(skewOf(page(0.03).slice(0, 2)), 0);
  // One-word lines (a page number, a stray mark) say nothing about the page.
  t.is(skewOf(page(0.03).map((l) => ({ ...l, words: l.words.slice(0, 1) }))), 0);
});

test('one steep line among level ones does not turn the page: the median is taken', (t) => {
  const lines = page(0.02);
  lines.push({ ...scannedLine(1500, LINE, 0.15) });
  t.true(Math.abs(skewOf(lines) - -0.02) < 1e-9);
});

test('on a page scanned 1.5° off, the words come back to where they were printed, on one baseline per line', (t) => {
  const tilt = (1.5 * Math.PI) / 180;
  const lines = page(tilt);
  const turned = skewOf(lines);
  const straight = straightened(lines.map((line) => ({ line, words: line.words })), turned, WIDTH, HEIGHT);
  t.is(straight.length, 4);
  straight.forEach((line, index) => {
    const y = 300 * (index + 1);
    t.true(Math.abs(line.baseline - y) < 0.5, `baseline ${line.baseline} for ${y}`);
    t.is(line.height, 40);
    line.words.forEach((word, w) => {
      const [, x0, x1] = LINE[w]!;
      t.true(Math.abs(word.bbox.x0 - x0) < 0.5 && Math.abs(word.bbox.x1 - x1) < 0.5, `${word.text} x ${word.bbox.x0}–${word.bbox.x1}`);
      t.true(Math.abs(word.bbox.y0 - (y - 30)) < 0.5 && Math.abs(word.bbox.y1 - y) < 0.5, `${word.text} y ${word.bbox.y0}–${word.bbox.y1}`);
    });
  });
  // Left unturned, the value at the line's end stands a line's height and more from its label.
  const [first] = lines;
  t.true(first!.words[2]!.bbox.y1 - first!.words[0]!.bbox.y1 > 30);
});

test('a straight page keeps its boxes as tesseract gave them', (t) => {
  const lines = page(0);
  const straight = straightened(lines.map((line) => ({ line, words: line.words })), 0, WIDTH, HEIGHT);
  t.deepEqual(straight.map((l) => l.words.map((w) => w.bbox)), lines.map((l) => l.words.map((w) => w.bbox)));
  t.deepEqual(straight.map((l) => l.baseline), [300, 600, 900, 1200].map((y) => y));
});
