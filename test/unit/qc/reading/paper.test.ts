// Evening out unevenly lit paper before OCR (reading/paper.ts): a shadowed page's paper becomes uniformly
// white and its ink stays dark; an evenly lit page is left exactly as it is.
import test from 'ava';
import { flattenPaper } from '../../../../src/qc/reading/paper.js';

/** A page of paper `light(x, y)` bright with a dark 20×20 "glyph" every 60 pixels. */
function page(width: number, height: number, light: (x: number, y: number) => number): Uint8Array {
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ink = x % 60 < 20 && y % 60 < 20;
      grey[y * width + x] = Math.round(light(x, y) * (ink ? 0.2 : 0.95));
    }
  }
  return grey;
}

test('a page in a shadow gets uniformly white paper, its ink kept dark', async (t) => {
  const [width, height] = [600, 800];
  const shaded = page(width, height, (x, y) => 255 * (1 - 0.6 * ((x / width + y / height) / 2)));
  const flat = await flattenPaper(shaded, width, height);
  t.not(flat, shaded);
  const at = (g: Uint8Array, x: number, y: number) => g[y * width + x]!;
  // Paper in the lit corner and in the shadowed one: 242 and 111 before, both near white after.
  t.true(at(shaded, 590, 790) < 130);
  t.true(at(flat, 30, 30) >= 215 && at(flat, 590, 790) >= 215, `${at(flat, 30, 30)} and ${at(flat, 590, 790)}`);
  // Ink in the shadow is still far darker than paper anywhere.
  t.true(at(flat, 545, 785) < 100, `${at(flat, 545, 785)}`);
});

test('an evenly lit page is returned as it is', async (t) => {
  const even = page(600, 800, () => 250);
  t.is(await flattenPaper(even, 600, 800), even);
});

test('sparse light ink on a dark ground stays lighter than its ground, the shadow around it flattened', async (t) => {
  const [width, height] = [600, 800];
  const shaded = page(width, height, (x, y) => 255 * (1 - 0.6 * ((x / width + y / height) / 2)));
  // A grey box (ground 110) across the middle of the page, with one line of small light glyphs (235) in
  // it: a few percent of a block's pixels, as a line of white print on a cover's shaded box.
  const inBox = (x: number, y: number) => x >= 96 && x < 480 && y >= 288 && y < 528;
  const glyph = (x: number, y: number) => y >= 400 && y < 412 && x >= 200 && x < 400 && x % 60 < 12;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (inBox(x, y)) shaded[y * width + x] = glyph(x, y) ? 235 : 110;
  }
  const flat = await flattenPaper(shaded, width, height);
  const at = (g: Uint8Array, x: number, y: number) => g[y * width + x]!;
  // A glyph and the ground beside it: the glyph white, the ground still far darker (dividing by the ground
  // itself would turn both white).
  t.true(at(flat, 245, 405) >= 235 && at(flat, 230, 405) <= 160, `${at(flat, 245, 405)} on ${at(flat, 230, 405)}`);
  // The shadowed paper outside the box is white.
  t.true(at(flat, 590, 790) >= 215, `${at(flat, 590, 790)}`);
});
