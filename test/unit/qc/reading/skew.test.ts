// A tilted scan's skew, read from the baselines native tesseract gives on the tilted image, and the page
// turned straight by it.
import test from 'ava';
import type { HocrLine, ReadWord } from '../../../../src/qc/reading/hocr.js';
import { baselineAt, MIN_SKEW, skewOf, turnedBitmap } from '../../../../src/qc/reading/skew.js';

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
    return {
      text,
      confidence: 90,
      bbox: { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) },
    };
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

test("the skew is fitted through the characters' bottoms: hOCR rounds every slope to three decimals", (t) => {
  // A page tilted 1.41°: hOCR says 0.025 for each line, 0.0004 more than the true slope, which turned
  // the page by 0.02° too much and read it differently from tesseract.js's own deskewing.
  const tilt = 0.0246;
  const lines = page(tilt).map((line) => {
    const words = line.words.map((w) => {
      // Letters 20 px wide standing on the tilted baseline (their boxes' bottoms), rounded to pixels as hOCR has them.
      const symbols = [];
      for (let x = w.bbox.x0; x + 20 <= w.bbox.x1; x += 22) {
        const bottom = Math.round(baselineAt(line, x + 10));
        symbols.push({ text: 'a', bbox: { x0: Math.round(x), y0: bottom - 20, x1: Math.round(x + 20), y1: bottom } });
      }
      return { ...w, symbols };
    });
    return { ...line, baseline: { ...line.baseline, slope: Math.round(line.baseline.slope * 1000) / 1000 }, words };
  });
  t.is(lines[0]!.baseline.slope, 0.025);
  t.true(Math.abs(skewOf(lines) - -tilt) < 0.0002, `skew ${skewOf(lines)}`);
});

test("a line's baseline is read from hOCR's slope and offset", (t) => {
  const tilt = (1.5 * Math.PI) / 180;
  const [line] = page(tilt);
  // The first word's baseline starts where the straight page's (100, 300) landed.
  const [x, y] = tilted(100, 300, tilt);
  t.true(Math.abs(baselineAt(line!, x) - y) < 1e-6);
});

test('a page turned by the skew read from it comes out level, at its own size, on white paper', async (t) => {
  // A 400 × 300 page with a dark bar 200 px long, tilted 3° about the page's centre.
  const [w, h] = [400, 300];
  const tilt = (3 * Math.PI) / 180;
  const grey = new Uint8Array(w * h).fill(255);
  for (let x = 100; x < 300; x++) {
    for (let dy = -2; dy <= 2; dy++) {
      const y = Math.round(150 + (x - 200) * Math.tan(tilt)) + dy;
      grey[y * w + x] = 0;
    }
  }
  const straight = await turnedBitmap({ grey, width: w, height: h }, -tilt);
  t.is(straight.width, w);
  t.is(straight.height, h);
  const data = straight.grey;
  // The bar's ends now stand at the same height: the dark rows at x = 110 and x = 290.
  const darkRows = (x: number) => Array.from({ length: h }, (_, y) => y).filter((y) => data[y * w + x]! < 128);
  const [left, right] = [darkRows(110), darkRows(290)];
  t.true(left.length > 0 && right.length > 0);
  t.true(Math.abs(left[0]! - right[0]!) <= 1, `left ${left.join(',')} right ${right.join(',')}`);
  t.is(data[0], 255, 'the corners brought in are paper');
});
