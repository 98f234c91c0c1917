// Check boxes on a scanned page, found in its pixels rather than in what OCR made of them. Tesseract has no
// glyph for a box: it reads an empty one as "O", "[I" or "CJ", a checked one as "®", "5" or nothing at all,
// and often glues it to the option's word ("OFHA"). Whether "Conventional" or "NO" was chosen is then
// lost. Here each word that may follow a box is looked at from its left: a square outline of about the
// line's height, found as a connected shape of ink, is a box; ink inside it is a mark. What OCR read in its
// place is replaced by "☒" or "☐", which the extractors read as any text layer's box glyphs.

/** A rectangle in image pixels, y downwards (tesseract's bbox). */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A word of one OCR line, with the boxes of its characters where OCR gives them. */
export interface OcrWord {
  text: string;
  bbox: PixelBox;
  symbols?: readonly { text: string; bbox: PixelBox }[];
}

/**
 * A binarised page: `ink(x, y)` is true for a dark pixel (`grey` below `threshold`); coordinates outside
 * the page are paper.
 */
export interface InkImage {
  width: number;
  height: number;
  grey: Uint8Array;
  threshold: number;
  ink(x: number, y: number): boolean;
}

export const CHECKED = '☒';
export const EMPTY = '☐';

/**
 * An image from 8-bit grey pixels, row by row: pixels darker than `threshold` are ink (tesseract's
 * binarised page, 0 ink and 255 paper, at the default mid-grey; a grey page at its Otsu threshold).
 */
export function inkImage(grey: Uint8Array, width: number, height: number, threshold = 128): InkImage {
  return {
    width,
    height,
    grey,
    threshold,
    ink: (x, y) => x >= 0 && y >= 0 && x < width && y < height && grey[y * width + x]! < threshold,
  };
}

/** Otsu's threshold of 8-bit grey pixels: the cut between ink and paper that best separates the two. */
export function otsuThreshold(grey: Uint8Array): number {
  // Counted in four histograms, a pixel each in turn, then summed: a page is mostly one grey of paper,
  // and increments of one counter back to back wait on each other (a 300-dpi page in 4 ms, not 14).
  const parts = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)] as const;
  const [h0, h1, h2, h3] = parts;
  const whole = grey.length - (grey.length % 4);
  for (let i = 0; i < whole; i += 4) {
    h0[grey[i]!]!++;
    h1[grey[i + 1]!]!++;
    h2[grey[i + 2]!]!++;
    h3[grey[i + 3]!]!++;
  }
  for (let i = whole; i < grey.length; i++) h0[grey[i]!]!++;
  const histogram = new Float64Array(256);
  for (let v = 0; v < 256; v++) histogram[v] = h0[v]! + h1[v]! + h2[v]! + h3[v]!;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * histogram[v]!;
  let below = 0;
  let belowSum = 0;
  let best = 0;
  let threshold = 128;
  for (let v = 0; v < 256; v++) {
    below += histogram[v]!;
    if (below === 0) continue;
    const above = grey.length - below;
    if (above === 0) break;
    belowSum += v * histogram[v]!;
    const between = below * above * (belowSum / below - (sum - belowSum) / above) ** 2;
    if (between > best) {
      best = between;
      threshold = v + 1;
    }
  }
  return threshold;
}

/**
 * The line's words with every check box found stated as a word of its own ("☒ Conventional ☐ FHA"):
 * what OCR read in a box's place (a short word, or the first characters of the next one) gives way to it.
 */
export function withCheckBoxes<W extends OcrWord>(words: readonly W[], image: InkImage): (W | OcrWord)[] {
  if (words.length === 0) return [...words];
  const height = lineHeight(words);
  const out: (W | OcrWord)[] = [];
  let claimedUntil = -Infinity; // a box already found covers pixels up to here
  words.forEach((word, index) => {
    const previous = words[index - 1];
    const box =
      /\p{L}{2}/u.test(word.text) && mayFollowBox(word, previous, height)
        ? boxBefore(word, image, height, claimedUntil)
        : undefined;
    if (!box) {
      out.push(word);
      return;
    }
    claimedUntil = box.bbox.x1;
    // Short words standing inside the box were OCR's reading of it.
    while (out.length > 0 && isInside(out[out.length - 1]!, box.bbox)) out.pop();
    out.push({ text: box.checked ? CHECKED : EMPTY, bbox: box.bbox });
    // A word read wholly from the box ("OD" for ☐) is gone with it.
    const rest = detached(word, box.bbox);
    if (rest) out.push(rest);
  });
  return out;
}

/** Letters are about the line's median word height; a box is drawn about a capital's height. */
function lineHeight(words: readonly OcrWord[]): number {
  const heights = words.map((w) => w.bbox.y1 - w.bbox.y0).sort((a, b) => a - b);
  return heights[heights.length >> 1]!;
}

/**
 * Only where a box can stand: at the line's start, after a gap wider than a word space, after a short
 * word (perhaps OCR's reading of a box), or with a box-like glyph glued to its start. Words in running text are
 * not looked at, which keeps this to a few words a page.
 */
function mayFollowBox(word: OcrWord, previous: OcrWord | undefined, height: number): boolean {
  if (!previous) return true;
  if (word.bbox.x0 - previous.bbox.x1 > 0.7 * height) return true;
  // A short word before it may be OCR's reading of the box ("O", "[I", "CO"); a short lowercase word of
  // running text ("of", "to", "the", "de") is not, and skipping those keeps the search to a third of the
  // words it looked at on a form page (each search floods the ink of four line heights' width).
  if (previous.text.length <= 3) return !/^\p{Ll}{2,3}$/u.test(previous.text);
  return /^(?:[[(□☐☒O0oDCc®@©5Ss8]|[xX](?=\p{Lu}))/u.test(word.text) && word.text.length >= 3;
}

function isInside(word: OcrWord, box: PixelBox): boolean {
  const middle = (word.bbox.x0 + word.bbox.x1) / 2;
  return word.text.length <= 3 && middle >= box.x0 - 2 && middle <= box.x1 + 2;
}

/**
 * The word without the characters OCR read from the box glued to its start ("OFHA" → "FHA"); nothing when
 * every character was read from the box (the box alone, read as "OD").
 */
function detached<W extends OcrWord>(word: W, box: PixelBox): W | undefined {
  if (word.bbox.x0 >= box.x1 - 2 || !word.symbols || word.symbols.length === 0) return word;
  // Characters centred over the box (or its right edge) were read from it.
  const slack = 0.15 * (box.x1 - box.x0);
  const kept = word.symbols.filter((s) => (s.bbox.x0 + s.bbox.x1) / 2 > box.x1 + slack);
  if (kept.length === 0) return word.bbox.x1 <= box.x1 + slack ? undefined : word;
  if (kept.length === word.symbols.length) return word;
  return {
    ...word,
    text: kept.map((s) => s.text).join(''),
    bbox: { ...word.bbox, x0: kept[0]!.bbox.x0 },
    symbols: kept,
  };
}

/**
 * The box nearest left of `word` (or under its first characters), if there is one: the rightmost shape of
 * ink in that strip that is a square outline between 0.4 and 1.4 line heights wide.
 */
function boxBefore(
  word: OcrWord,
  image: InkImage,
  height: number,
  notBefore: number,
): { bbox: PixelBox; checked: boolean } | undefined {
  const middle = (word.bbox.y0 + word.bbox.y1) / 2;
  const region = {
    x0: Math.max(Math.round(word.bbox.x0 - 2.4 * height), Math.ceil(notBefore) + 1, 0),
    x1: Math.min(Math.round(word.bbox.x0 + 1.6 * height), image.width - 1),
    y0: Math.max(Math.round(middle - 1.1 * height), 0),
    y1: Math.min(Math.round(middle + 1.1 * height), image.height - 1),
  };
  if (region.x1 - region.x0 < 0.4 * height) return undefined;
  let best: { bbox: PixelBox; checked: boolean } | undefined;
  for (const shape of shapesIn(image, region)) {
    const w = shape.x1 - shape.x0 + 1;
    const h = shape.y1 - shape.y0 + 1;
    if (w < 0.4 * height || w > 1.4 * height || h < 0.4 * height || h > 1.4 * height) continue;
    if (w / h < 0.75 || w / h > 1.33) continue;
    // A shape the strip cuts off (a table's rules, a long stroke) is not whole, so not a box.
    if (shape.x0 <= region.x0 || shape.x1 >= region.x1 || shape.y0 <= region.y0 || shape.y1 >= region.y1) continue;
    // The box must stand at the word's height: a shape of the line above or below is not its box.
    if (shape.y1 < word.bbox.y0 || shape.y0 > word.bbox.y1) continue;
    if (!outlined(image, shape) || !apart(image, shape, height)) continue;
    // A shape with the word's own letters left of it is one of those letters (the "O" of "LOAN").
    if (word.symbols?.some((c) => (c.bbox.x0 + c.bbox.x1) / 2 < shape.x0) ?? shape.x0 > word.bbox.x0 + 2) continue;
    const fill = inkInside(image, shape);
    // Between a few stray pixels and a mark's strokes it is neither; say nothing rather than guess.
    if (fill > 0.04 && fill < 0.1) continue;
    if (!best || shape.x0 > best.bbox.x0) best = { bbox: shape, checked: fill >= 0.1 };
  }
  return best;
}

/** Whether ink runs along all four sides of the shape's bounding box: a square's outline, not a letter. */
function outlined(image: InkImage, s: PixelBox): boolean {
  const w = s.x1 - s.x0 + 1;
  const h = s.y1 - s.y0 + 1;
  const depth = Math.max(2, Math.round(0.15 * Math.min(w, h)));
  const covered = (count: number, hit: (i: number) => boolean) => {
    let n = 0;
    for (let i = 0; i < count; i++) if (hit(i)) n++;
    return n / count;
  };
  const anyInk = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (image.ink(x, y)) return true;
    return false;
  };
  const sides = [
    covered(w, (i) => anyInk(s.x0 + i, s.y0, s.x0 + i, s.y0 + depth - 1)),
    covered(w, (i) => anyInk(s.x0 + i, s.y1 - depth + 1, s.x0 + i, s.y1)),
    covered(h, (i) => anyInk(s.x0, s.y0 + i, s.x0 + depth - 1, s.y0 + i)),
    covered(h, (i) => anyInk(s.x1 - depth + 1, s.y0 + i, s.x1, s.y0 + i)),
  ];
  // A square's corners are inked; a bold letter's round ones ("O", "B", "D") are not.
  const d = Math.max(2, Math.round(0.12 * Math.min(w, h)));
  const corners = [
    anyInk(s.x0, s.y0, s.x0 + d - 1, s.y0 + d - 1),
    anyInk(s.x1 - d + 1, s.y0, s.x1, s.y0 + d - 1),
    anyInk(s.x0, s.y1 - d + 1, s.x0 + d - 1, s.y1),
    anyInk(s.x1 - d + 1, s.y1 - d + 1, s.x1, s.y1),
  ];
  return sides.every((c) => c >= 0.85) && corners.every(Boolean);
}

/** A box stands apart from its option's word by a space; a letter touches the next within a word. */
function apart(image: InkImage, s: PixelBox, height: number): boolean {
  const gap = Math.max(2, Math.round(0.12 * height));
  for (let x = s.x1 + 1; x <= s.x1 + gap; x++) for (let y = s.y0; y <= s.y1; y++) if (image.ink(x, y)) return false;
  return true;
}

/** The share of ink inside the box, its outline (a fifth of the side each way) left out. */
function inkInside(image: InkImage, s: PixelBox): number {
  const insetX = Math.max(2, Math.round(0.2 * (s.x1 - s.x0 + 1)));
  const insetY = Math.max(2, Math.round(0.2 * (s.y1 - s.y0 + 1)));
  let ink = 0;
  let all = 0;
  for (let y = s.y0 + insetY; y <= s.y1 - insetY; y++) {
    for (let x = s.x0 + insetX; x <= s.x1 - insetX; x++) {
      all++;
      if (image.ink(x, y)) ink++;
    }
  }
  return all === 0 ? 0 : ink / all;
}

/**
 * The bounding boxes of the 8-connected shapes of ink inside `region` (within the page). The region's ink
 * is read once, row by row, into a mask (a flood looks at each pixel from up to eight neighbours); a
 * pixel's mark is cleared once its shape has taken it.
 */
function shapesIn(image: InkImage, within: PixelBox): PixelBox[] {
  const region = {
    x0: Math.max(0, within.x0),
    y0: Math.max(0, within.y0),
    x1: Math.min(image.width - 1, within.x1),
    y1: Math.min(image.height - 1, within.y1),
  };
  const w = region.x1 - region.x0 + 1;
  const h = region.y1 - region.y0 + 1;
  if (w <= 0 || h <= 0) return [];
  const { grey, threshold } = image;
  const ink = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const from = (region.y0 + y) * image.width + region.x0;
    for (let x = 0; x < w; x++) if (grey[from + x]! < threshold) ink[y * w + x] = 1;
  }
  const shapes: PixelBox[] = [];
  // Each pixel is pushed at most once (its mark is cleared as it is): the stack never outgrows the region.
  const stack = new Int32Array(w * h);
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start]) continue;
    ink[start] = 0;
    let top = 0;
    stack[top++] = start;
    let [x0, y0, x1, y1] = [w, h, -1, -1];
    while (top > 0) {
      const at = stack[--top]!;
      const py = Math.floor(at / w);
      const px = at - py * w;
      if (px < x0) x0 = px;
      if (px > x1) x1 = px;
      if (py < y0) y0 = py;
      if (py > y1) y1 = py;
      for (let ny = Math.max(0, py - 1); ny <= Math.min(h - 1, py + 1); ny++) {
        for (let nx = Math.max(0, px - 1); nx <= Math.min(w - 1, px + 1); nx++) {
          const next = ny * w + nx;
          if (!ink[next]) continue;
          ink[next] = 0;
          stack[top++] = next;
        }
      }
    }
    shapes.push({ x0: region.x0 + x0, y0: region.y0 + y0, x1: region.x0 + x1, y1: region.y0 + y1 });
  }
  return shapes;
}
