// A scan's skew, from the baselines native tesseract found, and its words moved onto the straightened page.
// Tesseract reads a line a degree or two off as well as a straight one, but its boxes stay on the tilted
// image: across a Letter page at 1.5° a line drifts by more than its height, and the layout step groups
// labels and values by y. The tesseract.js path turns the image before reading it (rotateAuto); here the
// boxes are turned instead, which costs no second pass: PageText is the same either way (positions on
// the page turned by `turned` about its centre, which evidence pictures turn back).
import type { OcrWord, PixelBox } from './check-boxes.js';
import type { HocrLine } from './hocr.js';

/** Below this (radians, about 0.3°) a page counts as straight, as tesseract.js's rotateAuto has it. */
export const MIN_SKEW = 0.005;
/** Beyond this (about 10°) the baselines do not say a page's skew: a photo's perspective or a rotated table. */
const MAX_SKEW = 0.18;

/** A line in the straightened page's pixels: its words, its baseline's y at its middle and its height. */
export interface StraightLine<W extends OcrWord> {
  words: W[];
  baseline: number;
  height: number;
}

/**
 * The angle (radians) to turn the page by about its centre so that its lines run level, y down: the
 * length-weighted median of the lines' baseline slopes, negated; 0 when that is under MIN_SKEW, or when
 * too few lines say so (fewer than three of two words or more).
 */
export function skewOf(lines: readonly HocrLine[]): number {
  const sloped = lines
    .filter((l) => l.words.length >= 2 && l.bbox.x1 > l.bbox.x0)
    .map((l) => ({ slope: l.baseline.slope, weight: l.bbox.x1 - l.bbox.x0 }))
    .sort((a, b) => a.slope - b.slope);
  if (sloped.length < 3) return 0;
  const total = sloped.reduce((sum, l) => sum + l.weight, 0);
  let seen = 0;
  let median = 0;
  for (const l of sloped) {
    seen += l.weight;
    median = l.slope;
    if (seen >= total / 2) break;
  }
  const angle = -Math.atan(median);
  return Math.abs(angle) < MIN_SKEW || Math.abs(angle) > MAX_SKEW ? 0 : angle;
}

/**
 * The lines on the page of `width` × `height` pixels turned by `turned` about its centre. A word's box on
 * the tilted image is the upright box around a tilted word; its own width and height are recovered from it
 * and set about its turned centre. Every word keeps its line's one baseline, as the tesseract.js path has it.
 */
export function straightened<W extends OcrWord>(lines: readonly { line: HocrLine; words: readonly W[] }[], turned: number, width: number, height: number): StraightLine<W>[] {
  const [cos, sin] = [Math.cos(turned), Math.sin(turned)];
  const [cx, cy] = [width / 2, height / 2];
  const turn = (x: number, y: number) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos] as const;
  const tilt = Math.abs(sin);
  const moved = (b: PixelBox): PixelBox => {
    const [boxW, boxH] = [b.x1 - b.x0, b.y1 - b.y0];
    // The upright box of a w × h word tilted by θ is (w cos θ + h sin θ) × (w sin θ + h cos θ).
    const det = cos * cos - tilt * tilt;
    const w = Math.max(1, Math.min(boxW, (boxW * cos - boxH * tilt) / det));
    const h = Math.max(1, Math.min(boxH, (boxH * cos - boxW * tilt) / det));
    const [x, y] = turn((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2);
    return { x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 };
  };
  return lines.map(({ line, words }) => {
    const middle = (line.bbox.x0 + line.bbox.x1) / 2;
    const [, baseline] = turn(middle, baselineAt(line, middle));
    return {
      words: words.map((word) => ({
        ...word,
        bbox: moved(word.bbox),
        ...(word.symbols ? { symbols: word.symbols.map((s) => ({ ...s, bbox: moved(s.bbox) })) } : {}),
      })),
      baseline,
      height: line.rowHeight || line.bbox.y1 - line.bbox.y0,
    };
  });
}

/** The baseline's height (pixels down) at `x`. */
export function baselineAt(line: HocrLine, x: number): number {
  return line.bbox.y1 + line.baseline.offset + line.baseline.slope * (x - line.bbox.x0);
}
