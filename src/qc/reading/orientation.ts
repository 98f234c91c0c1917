// A page's orientation: scanner feeds and phones deliver pages sideways and upside down, and OCR reads a
// turned page as noise (an upside-down form at confidence about 35) or as columns of sideways words whose
// boxes run down the page, which no layout can group into lines. So a page is read upright: a first
// reading that runs level at a confident mean says the page is upright (most pages, at no extra cost);
// any other is turned as the engine's orientation detection says (native tesseract's `--psm 0`), or, where
// the engine has none (tesseract.js without its legacy engine) or it is unsure, each way the first
// reading leaves possible is tried; the way that reads best is kept. Positions are the upright page's;
// evidence pictures turn the file's page the same way (`quarterTurns`).
import sharp from 'sharp';
import type { PixelBox } from './check-boxes.js';
import type { OcrBitmap } from './images.js';

/** Quarter turns clockwise that make the file's page upright. */
export type QuarterTurns = 0 | 1 | 2 | 3;

/** A word as either engine reads it: its box in the pixels it was read from, its confidence 0–100. */
export interface OrientedWord {
  text: string;
  bbox: PixelBox;
  confidence?: number;
  /** Whether the word runs level, where the reader says so (else its box does: wider than tall). */
  level?: boolean;
}

/** What a reading says of the way a page lies. */
export interface Lie {
  /** Words of three characters or more, whose boxes show which way their line runs. */
  words: number;
  /** The share of those whose boxes are wider than tall: 1 for a page read level, near 0 for one sideways. */
  level: number;
  /** Their mean confidence. */
  confidence: number;
}

/**
 * A first reading at least this confident, its words running level, is of an upright page. Upright
 * scans read 85–95, faxes and phone photos 60–80; the same pages upside down read 30–40.
 */
const UPRIGHT_CONFIDENCE = 60;
/** The share of level words that makes a reading level: a form's few vertical captions aside. */
const LEVEL = 0.8;
/** Fewer words than this say nothing of a page's lie (a cover with a title, a blank page). */
const MIN_WORDS = 6;
/** A turned reading replaces the first only when it reads this much better (score points, 0–100). */
const BETTER_BY = 10;
/**
 * Below this tesseract's orientation detection is a guess. Pages turned by a scanner give 7–17 on the
 * corpus (test/reading/orientation.test.ts); a guess below it is checked by trying the turns instead.
 */
export const MIN_ORIENTATION_CONFIDENCE = 2;

export function lieOf(words: readonly OrientedWord[]): Lie {
  const sized = words.filter((w) => w.text.trim().length >= 3);
  if (sized.length === 0) return { words: 0, level: 0, confidence: 0 };
  const level = sized.filter((w) => w.level ?? w.bbox.x1 - w.bbox.x0 > w.bbox.y1 - w.bbox.y0).length / sized.length;
  const confidence = sized.reduce((sum, w) => sum + (w.confidence ?? 0), 0) / sized.length;
  return { words: sized.length, level, confidence };
}

/** How well a reading reads, 0–100: its confidence, for the share of its words that run level. */
function score(lie: Lie): number {
  return lie.words < MIN_WORDS ? 0 : lie.confidence * lie.level;
}

/** Whether a first reading says its page is upright: enough words, running level, read with confidence. */
export function readsUpright(lie: Lie): boolean {
  return lie.words >= MIN_WORDS && lie.level >= LEVEL && lie.confidence >= UPRIGHT_CONFIDENCE;
}

/**
 * The turns worth trying after a first reading that did not read upright, likeliest first: words running
 * down the page leave a quarter turn either way; other words, upside down first (level but noise), then
 * either quarter turn (tesseract.js cuts a sideways page into level scraps of noise); too few words, none
 * (a blank or nearly blank page has no lie to find, and reading it three more times would find nothing).
 */
export function turnsToTry(lie: Lie): QuarterTurns[] {
  if (lie.words < MIN_WORDS) return [];
  return lie.level <= 1 - LEVEL ? [1, 3] : [2, 1, 3];
}

/**
 * The turn tesseract's orientation detection (`--psm 0`) reports: "Rotate: 90" is the quarter turns
 * clockwise that make the page upright; undefined when the detection says nothing or is unsure.
 */
export function turnsOfOsd(report: string): QuarterTurns | undefined {
  const rotate = /^Rotate:\s*(\d+)\s*$/m.exec(report);
  const confidence = /^Orientation confidence:\s*([\d.]+)\s*$/m.exec(report);
  if (!rotate || !confidence || Number(confidence[1]) < MIN_ORIENTATION_CONFIDENCE) return undefined;
  const turns = Number(rotate[1]) / 90;
  return turns === 0 || turns === 1 || turns === 2 || turns === 3 ? turns : undefined;
}

/** The bitmap turned clockwise by `turns` quarter turns: exact (no resampling), its sides swapped by odd turns. */
export async function uprightBitmap(bitmap: OcrBitmap, turns: QuarterTurns): Promise<OcrBitmap> {
  if (turns === 0) return bitmap;
  const { data, info } = await sharp(bitmap.grey, { raw: { width: bitmap.width, height: bitmap.height, channels: 1 } })
    .rotate(turns * 90)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { grey: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/**
 * Reads a page upright: `read` once as it lies; when that reading does not read upright, again turned as
 * `detect` (the engine's orientation detection) says, then each way `turnsToTry` leaves, until one reads
 * upright; the best reading wins, the first unless a turned one reads BETTER_BY better. `words` gives a
 * reading's words; `turn` turns a bitmap (uprightBitmap).
 */
export async function readUpright<R>(
  bitmap: OcrBitmap,
  read: (bitmap: OcrBitmap) => Promise<R>,
  words: (reading: R) => readonly OrientedWord[],
  detect?: (bitmap: OcrBitmap) => Promise<QuarterTurns | undefined>,
  turn: (bitmap: OcrBitmap, turns: QuarterTurns) => Promise<OcrBitmap> | OcrBitmap = uprightBitmap,
): Promise<{ bitmap: OcrBitmap; reading: R; turns: QuarterTurns }> {
  const first = await read(bitmap);
  const lie = lieOf(words(first));
  if (readsUpright(lie)) return { bitmap, reading: first, turns: 0 };
  const detected = await detect?.(bitmap);
  // Detection that says upright is believed: a poor scan is read as it lies, at no more cost.
  if (detected === 0) return { bitmap, reading: first, turns: 0 };
  let best: { bitmap: OcrBitmap; reading: R; turns: QuarterTurns; score: number } | undefined;
  // Detection can mistake one quarter turn for the other: where its turn does not read upright, the turns
  // the first reading leaves are tried after it.
  const candidates = [...(detected !== undefined ? [detected] : []), ...turnsToTry(lie).filter((t) => t !== detected)];
  for (const turns of candidates) {
    const turned = await turn(bitmap, turns);
    const reading = await read(turned);
    const turnedLie = lieOf(words(reading));
    const s = score(turnedLie);
    if (!best || s > best.score) best = { bitmap: turned, reading, turns, score: s };
    // A turn that reads upright is the page's: the rest need not be tried.
    if (readsUpright(turnedLie)) break;
  }
  return best && best.score >= score(lie) + BETTER_BY ? best : { bitmap, reading: first, turns: 0 };
}
