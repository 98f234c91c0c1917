// Evens out the paper of a photographed or unevenly lit page before OCR. Tesseract binarises a page with
// one global threshold (Otsu): on a phone picture whose one corner is in shadow, the shadow's text and its
// paper fall on the same side of it and the corner reads as nothing. Each pixel is divided by the local
// paper brightness (the bright end of its neighbourhood), which makes the paper uniformly white and keeps
// the ink dark; a page already evenly lit (every scan and render) is left as it is, at no cost but one
// pass over its pixels. On a dark ground with light ink (a cover's white title on a shaded box), the ink
// is the paper: the ground stays darker than it, and the ink is kept where it is sparse. The work gives the
// event loop a turn every few milliseconds (loop-turns.ts).
import { loopTurns } from './loop-turns.js';

/** Side of the blocks the paper's brightness is estimated in (pixels at ~300 dpi: about a text line). */
const BLOCK = 48;
/** Pixels sampled for a block's paper: one in SAMPLE × SAMPLE. */
const SAMPLE = 4;
/** Paper brighter in one place than another by more than this (0–255) is uneven. */
const UNEVEN = 36;

/** A block's ground this much darker than the page's paper is a dark one: a shaded box, a bar, a shadow. */
const DARK_GROUND = 72;
/** Ink stands out of its ground on one side by this much more than on the other (0–255): light or dark ink. */
const INK_SIDE = 24;
/** Neighbouring blocks whose grounds differ by no more than this are one ground (one box, one bar). */
const GROUND_STEP = 24;
/** A dark ground with light ink in fewer blocks than this is a glare or a speck, not a light text. */
const MIN_LIGHT_BLOCKS = 2;
/** Blocks each way whose brightest light ink is a reversed block's paper: its neighbours, as for dark ink. */
const INK_REACH = 1;

/**
 * The grey page with its paper flattened when its lighting is uneven; the same array otherwise. `grey` is
 * one byte a pixel, rows top to bottom.
 */
export async function flattenPaper(grey: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const turn = loopTurns();
  const cols = Math.ceil(width / BLOCK);
  const rows = Math.ceil(height / BLOCK);
  if (cols < 3 || rows < 3) return grey;
  // The levels of each block (its paper: a high percentile of its pixels, text being at most a minority of
  // a block), from every fourth pixel of every fourth row: 144 a block tell its paper as well as every
  // second's 576, and every page, evenly lit or not, pays for this pass (on the main thread, beside OCR's
  // processes).
  const dark = new Uint8Array(cols * rows);
  const median = new Uint8Array(cols * rows);
  const bright = new Uint8Array(cols * rows);
  const paper = new Float32Array(cols * rows);
  const histogram = new Uint32Array(256);
  for (let by = 0; by < rows; by++) {
    await turn();
    for (let bx = 0; bx < cols; bx++) {
      histogram.fill(0);
      let count = 0;
      for (let y = by * BLOCK; y < Math.min(height, (by + 1) * BLOCK); y += SAMPLE) {
        for (let x = bx * BLOCK; x < Math.min(width, (bx + 1) * BLOCK); x += SAMPLE) {
          histogram[grey[y * width + x]!]!++;
          count++;
        }
      }
      const block = by * cols + bx;
      let seen = 0;
      let level = 255;
      for (; level > 0; level--) {
        seen += histogram[level]!;
        if (seen >= count * 0.1) break;
      }
      const [darkEnd, middle, brightEnd] = percentiles(histogram, count, [0.05, 0.5, 0.95]);
      paper[block] = level;
      dark[block] = darkEnd!;
      median[block] = middle!;
      bright[block] = brightEnd!;
    }
  }
  // Light ink on a dark ground (a shaded box's white title, a black bar's) is the bright end of its blocks,
  // and where it is sparse (one line in a box, a scan at low resolution) the percentile paper is read at
  // is its ground: divided by it, ground and ink alike turn white. Such a block's paper is the brightest
  // ink near it, found at a higher percentile; a block of ground far from any ink still turns white.
  const reversed = reversedRegions(dark, median, bright, paper, cols, rows);
  if (reversed) {
    // Each block reads its own paper and its neighbours' bright ends only: updated in place.
    for (let block = 0; block < paper.length; block++) {
      if (!reversed[block]) continue;
      const [bx, by] = [block % cols, Math.floor(block / cols)];
      let ink = paper[block]!;
      for (let y = Math.max(0, by - INK_REACH); y <= Math.min(rows - 1, by + INK_REACH); y++)
        for (let x = Math.max(0, bx - INK_REACH); x <= Math.min(cols - 1, bx + INK_REACH); x++)
          if (reversed[y * cols + x]) ink = Math.max(ink, bright[y * cols + x]!);
      paper[block] = ink;
    }
  }
  // A block that is all ink or picture (a logo, a dark photo margin) borrows its neighbours' paper.
  const smoothed = new Float32Array(paper.length);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      let best = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const y = by + dy;
          const x = bx + dx;
          if (y >= 0 && y < rows && x >= 0 && x < cols) best = Math.max(best, paper[y * cols + x]!);
        }
      }
      smoothed[by * cols + bx] = best;
    }
  }
  const sorted = [...smoothed].sort((a, b) => a - b);
  const low = sorted[Math.floor(sorted.length * 0.05)]!;
  const high = sorted[Math.floor(sorted.length * 0.95)]!;
  if (high - low <= UNEVEN || high < 64) return grey;
  // Bilinear between block centres. A column's two centres and its weight are the same on every row, and
  // a row's paper across the page changes only when the row passes a centre: both are worked out once, so
  // each pixel costs one blend and one division (the same arithmetic, in the same order, as per pixel).
  const left = new Int32Array(width);
  const right = new Int32Array(width);
  const across = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(cols - 1, Math.max(0, (x - BLOCK / 2) / BLOCK));
    left[x] = Math.floor(fx);
    right[x] = Math.min(cols - 1, left[x]! + 1);
    across[x] = fx - left[x]!;
  }
  const top = new Float64Array(width);
  const bottom = new Float64Array(width);
  let between = -1;
  const out = new Uint8Array(grey.length);
  for (let y = 0; y < height; y++) {
    if (y % 16 === 0) await turn();
    const fy = Math.min(rows - 1, Math.max(0, (y - BLOCK / 2) / BLOCK));
    const y0 = Math.floor(fy);
    const ty = fy - y0;
    if (y0 !== between) {
      between = y0;
      const upper = y0 * cols;
      const lower = Math.min(rows - 1, y0 + 1) * cols;
      for (let x = 0; x < width; x++) {
        const tx = across[x]!;
        top[x] = smoothed[upper + left[x]!]! * (1 - tx) + smoothed[upper + right[x]!]! * tx;
        bottom[x] = smoothed[lower + left[x]!]! * (1 - tx) + smoothed[lower + right[x]!]! * tx;
      }
    }
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const background = Math.max(16, top[x]! * (1 - ty) + bottom[x]! * ty);
      out[row + x] = Math.min(255, Math.round((grey[row + x]! * 255) / background));
    }
  }
  return out;
}

/** The grey levels below which `fractions` of a histogram's `count` pixels lie, in order. */
function percentiles(histogram: Uint32Array, count: number, fractions: readonly number[]): number[] {
  const out: number[] = [];
  let seen = 0;
  let level = 0;
  for (const fraction of fractions) {
    while (level < 255 && seen + histogram[level]! <= count * fraction) seen += histogram[level++]!;
    out.push(level);
  }
  return out;
}

/**
 * Blocks of light ink on a dark ground, by region: blocks of a dark ground without dark ink, joined side
 * by side where their grounds are alike (a shaded box's blocks, empty ones included; not a shadow's
 * gradient), in a region where some show light ink (a white title, white prose). A shadow's ink is dark:
 * its blocks are never kept. Undefined where there is none, the common case.
 */
function reversedRegions(
  dark: Uint8Array,
  median: Uint8Array,
  bright: Uint8Array,
  paper: Float32Array,
  cols: number,
  rows: number,
): Uint8Array | undefined {
  const page = [...paper].sort((a, b) => a - b)[Math.floor(paper.length * 0.95)]!;
  const ink = (block: number) => bright[block]! - median[block]! - (median[block]! - dark[block]!);
  const ground = (block: number) => median[block]! < page - DARK_GROUND && ink(block) >= -INK_SIDE;
  const region = new Uint8Array(cols * rows);
  let reversed: Uint8Array | undefined;
  for (let start = 0; start < region.length; start++) {
    if (region[start] || !ground(start)) continue;
    const members = [start];
    region[start] = 1;
    let light = 0;
    for (let i = 0; i < members.length; i++) {
      const block = members[i]!;
      if (ink(block) > INK_SIDE) light++;
      const [bx, by] = [block % cols, Math.floor(block / cols)];
      for (const [x, y] of [
        [bx - 1, by],
        [bx + 1, by],
        [bx, by - 1],
        [bx, by + 1],
      ] as const) {
        const next = y * cols + x;
        if (x < 0 || x >= cols || y < 0 || y >= rows || region[next] || !ground(next)) continue;
        if (Math.abs(median[next]! - median[block]!) > GROUND_STEP) continue;
        region[next] = 1;
        members.push(next);
      }
    }
    if (light >= MIN_LIGHT_BLOCKS) {
      reversed ??= new Uint8Array(cols * rows);
      for (const block of members) reversed[block] = 1;
    }
  }
  return reversed;
}
