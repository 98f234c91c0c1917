// Evens out the paper of a photographed or unevenly lit page before OCR. Tesseract binarises a page with
// one global threshold (Otsu): on a phone picture whose one corner is in shadow, the shadow's text and its
// paper fall on the same side of it and the corner reads as nothing. Each pixel is divided by the local
// paper brightness (the bright end of its neighbourhood), which makes the paper uniformly white and keeps
// the ink dark; a page already evenly lit (every scan and render) is left as it is, at no cost but one
// pass over its pixels. The work gives the event loop a turn every few milliseconds (loop-turns.ts).
import { loopTurns } from './loop-turns.js';

/** Side of the blocks the paper's brightness is estimated in (pixels at ~300 dpi: about a text line). */
const BLOCK = 48;
/** Pixels sampled for a block's paper: one in SAMPLE × SAMPLE. */
const SAMPLE = 4;
/** Paper brighter in one place than another by more than this (0–255) is uneven. */
const UNEVEN = 36;

/**
 * The grey page with its paper flattened when its lighting is uneven; the same array otherwise. `grey` is
 * one byte a pixel, rows top to bottom.
 */
export async function flattenPaper(grey: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const turn = loopTurns();
  const cols = Math.ceil(width / BLOCK);
  const rows = Math.ceil(height / BLOCK);
  if (cols < 3 || rows < 3) return grey;
  // The paper in each block: a high percentile of its pixels (text is at most a minority of a block),
  // from every fourth pixel of every fourth row: 144 a block tell its paper as well as every second's
  // 576, and every page, evenly lit or not, pays for this pass (on the main thread, beside OCR's processes).
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
      let seen = 0;
      let level = 255;
      for (; level > 0; level--) {
        seen += histogram[level]!;
        if (seen >= count * 0.1) break;
      }
      paper[by * cols + bx] = level;
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
  const out = new Uint8Array(grey.length);
  for (let y = 0; y < height; y++) {
    if (y % 16 === 0) await turn();
    // Bilinear between block centres.
    const fy = Math.min(rows - 1, Math.max(0, (y - BLOCK / 2) / BLOCK));
    const y0 = Math.floor(fy);
    const y1 = Math.min(rows - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(cols - 1, Math.max(0, (x - BLOCK / 2) / BLOCK));
      const x0 = Math.floor(fx);
      const x1 = Math.min(cols - 1, x0 + 1);
      const tx = fx - x0;
      const top = smoothed[y0 * cols + x0]! * (1 - tx) + smoothed[y0 * cols + x1]! * tx;
      const bottom = smoothed[y1 * cols + x0]! * (1 - tx) + smoothed[y1 * cols + x1]! * tx;
      const background = Math.max(16, top * (1 - ty) + bottom * ty);
      out[y * width + x] = Math.min(255, Math.round((grey[y * width + x]! * 255) / background));
    }
  }
  return out;
}
