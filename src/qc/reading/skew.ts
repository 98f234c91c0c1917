// A scan's skew, from the baselines native tesseract found, and the page turned straight. Tesseract reads
// a line a degree or two off, but its boxes stay on the tilted image: across a Letter page at 1.5° a line
// drifts by more than its height, and the layout step groups labels and values by y. So a tilted page is
// turned and read again, as tesseract.js's rotateAuto turns it before reading: PageText is the same either
// way (positions on the page turned by `turned` about its centre, which evidence pictures turn back).
// Turning the boxes of the first reading instead saves the second pass, but read fewer fields of the
// corpus's blurred 150-dpi scans (docs/reading.md). Tesseract's own layout-only skew (`--psm 2`, its
// "Deskew angle") is no cheap stand-in for the first reading: on the corpus's 48 scanned pages it cost 44%
// of a reading's time, differed from the baseline fit by up to 0.5°, and read 0 on four tilted pages.
// Nor is the pixels' own skew (a projection profile: the angle at which the page's ink falls into the
// sharpest rows), though it agrees with the baseline fit within 0.05° on those 48 pages for some 0.1 s of
// CPU: read turned by it, pages come out read differently here and there (a turn 0.002° apart reads
// "$8,791" as "58,791"), and five of the reading tests lost a field or read one off a blank form.
import sharp from 'sharp';
import type { HocrLine } from './hocr.js';
import type { OcrBitmap } from './images.js';

/** Below this (radians, about 0.3°) a page counts as straight, as tesseract.js's rotateAuto has it. */
export const MIN_SKEW = 0.005;
/** Beyond this (about 10°) the baselines do not say a page's skew: a photo's perspective or a rotated table. */
export const MAX_SKEW = 0.18;

/**
 * The angle (radians) to turn the page by about its centre so that its lines run level, y down: the
 * length-weighted median of the lines' slopes, negated; 0 when that is under MIN_SKEW, or when too few
 * lines say so (fewer than three of two words or more).
 */
export function skewOf(lines: readonly HocrLine[]): number {
  const sloped = lines
    .filter((l) => l.words.length >= 2 && l.bbox.x1 > l.bbox.x0)
    .map((l) => ({ slope: slopeOf(l), weight: l.bbox.x1 - l.bbox.x0 }))
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

/** Characters whose bottom stands this close (pixels) to hOCR's baseline sit on it (no descender, no dash). */
const ON_BASELINE = 3;

/**
 * A line's slope, fitted by least squares through the bottoms of its characters that stand on the
 * baseline; hOCR's own slope where the line has too few of them. hOCR writes slopes rounded to three
 * decimals, so every line of a page tilted 1.41° reads 0.025: the page would be turned by up to 0.03° too
 * much or too little, and the page read again would not be the page tesseract.js deskews and reads.
 */
function slopeOf(line: HocrLine): number {
  const points: [number, number][] = [];
  for (const word of line.words) {
    for (const symbol of word.symbols ?? []) {
      const x = (symbol.bbox.x0 + symbol.bbox.x1) / 2;
      if (Math.abs(symbol.bbox.y1 - baselineAt(line, x)) <= ON_BASELINE) points.push([x, symbol.bbox.y1]);
    }
  }
  if (points.length < 8) return line.baseline.slope;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
  }
  // Characters spread over less than a few words' width give no better slope than hOCR's.
  return sxx > n * 200 ** 2 ? sxy / sxx : line.baseline.slope;
}

/** The baseline's height (pixels down) at `x`. */
export function baselineAt(line: HocrLine, x: number): number {
  return line.bbox.y1 + line.baseline.offset + line.baseline.slope * (x - line.bbox.x0);
}

/**
 * The bitmap turned by `turned` radians about its centre (clockwise for a positive angle, y down), on white
 * paper, at its own size.
 */
export async function turnedBitmap(bitmap: OcrBitmap, turned: number): Promise<OcrBitmap> {
  const { width, height } = bitmap;
  const { data, info } = await sharp(bitmap.grey, { raw: { width, height, channels: 1 } })
    .rotate((turned * 180) / Math.PI, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  // sharp grows the canvas to hold the turned page; its middle is the page, the corners fall off.
  const cut = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .extract({ left: Math.round((info.width - width) / 2), top: Math.round((info.height - height) / 2), width, height })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { grey: cut, width, height };
}
