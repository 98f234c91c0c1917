// Where a page puts ink, worked out from its drawing operators instead of a render. The check of which
// words a reader sees (visible-text.ts) needs only "is there ink in this word's box": drawing every glyph
// to pixels for that cost about three quarters of reading a text page (pdf.js's per-glyph painting and
// the canvas's read-back, some 90 ms a form page against 15 ms for its text). Here the operator list,
// which pdf.js builds anyway, is walked once: each drawn glyph's box, dark fills and rules are set in a
// one-byte-per-pixel mask, light fills drawn over them clear it again, all within the clip in force.
// Whatever the walk does not model exactly (a shading or pattern, a soft mask, a blend mode that is not
// plain painting or darkening, Type 3 or vertical fonts, optional content, a stencil or a light curved
// shape where text is) makes it answer null, and the caller renders the page as before.
import { OPS } from './pdfjs.js';
import type { PdfDocument } from './pdfjs.js';

type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
type PageViewport = ReturnType<PdfPage['getViewport']>;

/** [a, b, c, d, e, f]: (x, y) → (a·x + c·y + e, b·x + d·y + f), as PDF and pdf.js write matrices. */
type Matrix = [number, number, number, number, number, number];
/** x0, y0, x1, y1 in device pixels, x0 ≤ x1 and y0 ≤ y1. */
type Box = [number, number, number, number];

/** A pixel darker than this luminance is ink (the same threshold the render check reads pixels with). */
export const INK_LUMINANCE = 160;

/** The share of a glyph's advance on each side that its ink leaves clear (side bearings). */
const GLYPH_INSET = 0.1;

/** Walks with more operators than this are not worth it against a render (and bound a hostile page). */
const MAX_OPERATORS = 200_000;
/** Image pixels sampled on one page beyond this (four pages' worth): a page built of images, render it. */
const MAX_IMAGE_PIXELS = 16_000_000;
/** Pixels set or cleared on one page beyond this: a page built to be slow (a form page sets a few million). */
const MAX_PAINTED_PIXELS = 100_000_000;
/** Regions of unknown paint (images, shadings) beyond this: the page is a picture, render it. */
const MAX_UNKNOWN_REGIONS = 64;

/** Paint that the walk does not model: the page is rendered instead. */
class Unmodelled extends Error {}

interface FontInfo {
  fontMatrix: number[];
  vertical: boolean;
  isType3Font: boolean;
  missingFile: boolean;
}

/** A decoded image as pdf.js hands it to the canvas: 1 = 1-bit grey (set bits white), 2 = RGB, 3 = RGBA. */
interface ImageData {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/** The objects an operator list names: fonts and images by id. */
interface PageObjects {
  font(name: string): FontInfo;
  image(id: string): ImageData;
}

interface Glyph {
  unicode: string;
  width: number;
  isSpace: boolean;
  isInFont: boolean;
}

interface State {
  ctm: Matrix;
  clip: Box;
  /** Whether the clip is exactly its box (every clip so far one axis-aligned rectangle). */
  clipExact: boolean;
  /** Whether fills paint ink (dark), paper (light), nothing (transparent), or something unmodelled. */
  fill: Paint;
  stroke: Paint;
  fillAlpha: number;
  strokeAlpha: number;
  lineWidth: number;
  font: FontInfo | null;
  fontSize: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  renderMode: number;
  textMatrix: Matrix;
  x: number;
  y: number;
  lineX: number;
  lineY: number;
}

type Paint = { kind: 'colour'; luminance: number } | { kind: 'none' } | { kind: 'unmodelled' };

/**
 * The page's ink at `viewport` as one byte a pixel (1 = ink), rows top to bottom, or null when the page
 * draws something this walk does not model where there is text: render it then.
 */
export async function operatorInk(page: PdfPage, viewport: PageViewport): Promise<Uint8Array | null> {
  const { fnArray, argsArray } = await page.getOperatorList();
  if (fnArray.length > MAX_OPERATORS) return null;
  const width = Math.ceil(viewport.width);
  const height = Math.ceil(viewport.height);
  // pdf.js sends a page's decoded images after its operator list: each is awaited, as the render does.
  const images = new Map<string, ImageData>();
  await Promise.all(
    fnArray.flatMap((fn, i) => {
      if (fn !== OPS.paintImageXObject) return [];
      const id = String((argsArray[i] as unknown[])[0]);
      const store = id.startsWith('g_') ? page.commonObjs : page.objs;
      return [
        new Promise<void>((resolve) =>
          store.get(id, (img: ImageData) => {
            images.set(id, img);
            resolve();
          }),
        ),
      ];
    }),
  );
  const objects = {
    font: (name: string) => page.commonObjs.get(name) as FontInfo,
    image: (id: string) => images.get(id) ?? (page.objs.get(id) as ImageData),
  };
  const walk = new InkWalk(width, height, viewport.transform as Matrix, objects);
  try {
    for (let i = 0; i < fnArray.length; i++) walk.run(fnArray[i]!, argsArray[i] as unknown[]);
  } catch (err) {
    if (err instanceof Unmodelled) return null;
    throw err;
  }
  return walk.textUnderUnknownPaint() ? null : walk.ink;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** The walk itself: state as pdf.js's CanvasGraphics keeps it, and the mask it paints. */
class InkWalk {
  readonly ink: Uint8Array;
  private state: State;
  private readonly stack: State[] = [];
  private pendingClip = false;
  /** Device boxes of every glyph shown, drawn or not: text that unknown paint may cover or underlie. */
  private readonly textBoxes: Box[] = [];
  private readonly unknownRegions: Box[] = [];
  private imagePixels = 0;
  /** The box of the glyphs shown as a clip (modes 4–7) in the open text object; null when none had a box yet. */
  private textClip: Box | null | undefined;
  private paintedPixels = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly base: Matrix,
    private readonly objects: PageObjects,
  ) {
    this.ink = new Uint8Array(width * height);
    this.state = initialState(base, [0, 0, width, height]);
  }

  /** Whether a glyph box meets a region painted in a way the walk cannot tell ink from paper. */
  textUnderUnknownPaint(): boolean {
    return this.unknownRegions.some((r) => this.textBoxes.some((t) => overlaps(r, t)));
  }

  run(fn: number, args: unknown[] | null): void {
    const s = this.state;
    const a = args ?? [];
    switch (fn) {
      case OPS.save:
        this.stack.push({ ...s });
        return;
      case OPS.restore:
        if (this.stack.length > 0) this.state = this.stack.pop()!;
        return;
      case OPS.transform:
        s.ctm = multiply(s.ctm, a as Matrix);
        return;
      case OPS.setGState:
        for (const [key, value] of a[0] as [string, unknown][]) this.gstate(key, value);
        return;
      case OPS.setLineWidth:
        s.lineWidth = Number(a[0]);
        return;
      case OPS.setFillRGBColor:
        s.fill = colour(a[0]);
        return;
      case OPS.setStrokeRGBColor:
        s.stroke = colour(a[0]);
        return;
      case OPS.setFillTransparent:
        s.fill = { kind: 'none' };
        return;
      case OPS.setStrokeTransparent:
        s.stroke = { kind: 'none' };
        return;
      case OPS.setFillColorN:
      case OPS.setFillColor:
      case OPS.setFillGray:
      case OPS.setFillCMYKColor:
      case OPS.setFillColorSpace:
        // pdf.js hands plain colours over as RGB; these carry patterns and shadings.
        s.fill = { kind: 'unmodelled' };
        return;
      case OPS.setStrokeColorN:
      case OPS.setStrokeColor:
      case OPS.setStrokeGray:
      case OPS.setStrokeCMYKColor:
      case OPS.setStrokeColorSpace:
        s.stroke = { kind: 'unmodelled' };
        return;
      case OPS.clip:
      case OPS.eoClip:
        this.pendingClip = true;
        return;
      case OPS.constructPath:
        this.path(a[0] as number, a[1]);
        return;
      case OPS.beginText:
        s.textMatrix = IDENTITY;
        s.x = s.lineX = s.y = s.lineY = 0;
        return;
      case OPS.endText:
        // Text shown in modes 4–7 becomes the clip at the end of its text object (as pdf.js applies it):
        // taken as the glyphs' bounding box, inexact, so a fill through it inks their line and no more.
        if (this.textClip !== undefined) {
          s.clip = this.textClip ? intersect(s.clip, this.textClip) : [0, 0, 0, 0];
          s.clipExact = false;
          this.textClip = undefined;
        }
        return;
      case OPS.setCharSpacing:
        s.charSpacing = Number(a[0]);
        return;
      case OPS.setWordSpacing:
        s.wordSpacing = Number(a[0]);
        return;
      case OPS.setHScale:
        s.hScale = Number(a[0]) / 100;
        return;
      case OPS.setLeading:
        s.leading = -Number(a[0]);
        return;
      case OPS.setFont:
        this.setFont(String(a[0]), Number(a[1]));
        return;
      case OPS.setTextRenderingMode:
        s.renderMode = Number(a[0]);
        return;
      case OPS.setTextRise:
        s.rise = Number(a[0]);
        return;
      case OPS.moveText:
        s.x = s.lineX += Number(a[0]);
        s.y = s.lineY += Number(a[1]);
        return;
      case OPS.setLeadingMoveText:
        s.leading = Number(a[1]);
        s.x = s.lineX += Number(a[0]);
        s.y = s.lineY += Number(a[1]);
        return;
      case OPS.setTextMatrix:
        s.textMatrix = [...(a[0] as number[])] as Matrix;
        s.x = s.lineX = s.y = s.lineY = 0;
        return;
      case OPS.nextLine:
        s.x = s.lineX += 0;
        s.y = s.lineY += s.leading;
        return;
      case OPS.showText:
      case OPS.showSpacedText:
        this.showText(a[0] as (Glyph | number)[]);
        return;
      case OPS.nextLineShowText:
        s.y = s.lineY += s.leading;
        s.x = s.lineX;
        this.showText(a[0] as (Glyph | number)[]);
        return;
      case OPS.nextLineSetSpacingShowText:
        s.wordSpacing = Number(a[0]);
        s.charSpacing = Number(a[1]);
        s.y = s.lineY += s.leading;
        s.x = s.lineX;
        this.showText(a[2] as (Glyph | number)[]);
        return;
      case OPS.paintFormXObjectBegin: {
        this.stack.push({ ...s });
        const [matrix, bbox] = a as [number[] | null, number[] | null];
        if (matrix) s.ctm = multiply(s.ctm, matrix as Matrix);
        if (bbox) s.clip = intersect(s.clip, boxOf(s.ctm, bbox[0]!, bbox[1]!, bbox[2]!, bbox[3]!));
        return;
      }
      case OPS.paintFormXObjectEnd:
      case OPS.endGroup:
      case OPS.endAnnotation:
        if (this.stack.length > 0) this.state = this.stack.pop()!;
        return;
      case OPS.beginGroup: {
        const group = a[0] as { smask?: unknown; matrix?: number[] | null; bbox?: number[] | null };
        if (group.smask) throw new Unmodelled();
        this.stack.push({ ...s });
        if (group.matrix) s.ctm = multiply(s.ctm, group.matrix as Matrix);
        if (group.bbox)
          s.clip = intersect(s.clip, boxOf(s.ctm, group.bbox[0]!, group.bbox[1]!, group.bbox[2]!, group.bbox[3]!));
        return;
      }
      case OPS.beginAnnotation: {
        // pdf.js draws an annotation's appearance from the page's own state: the viewport's transform,
        // clipped to the annotation's rectangle, then its own transform and matrix.
        const [, rect, transform, matrix] = a as [unknown, number[] | null, Matrix, Matrix];
        this.stack.push({ ...s });
        const fresh = initialState(this.base, [0, 0, this.width, this.height]);
        if (rect) fresh.clip = intersect(fresh.clip, boxOf(this.base, rect[0]!, rect[1]!, rect[2]!, rect[3]!));
        fresh.ctm = multiply(multiply(fresh.ctm, transform), matrix);
        this.state = fresh;
        return;
      }
      case OPS.beginMarkedContentProps:
        // Optional content may be hidden by the document's configuration, which the render applies.
        if (a[0] === 'OC') throw new Unmodelled();
        return;
      case OPS.paintImageXObject:
        this.image(() => this.objects.image(String(a[0])));
        return;
      case OPS.paintInlineImageXObject:
        this.image(() => a[0] as ImageData);
        return;
      case OPS.paintImageMaskXObject:
      case OPS.paintSolidColorImageMask:
      case OPS.paintImageXObjectRepeat:
      case OPS.paintImageMaskXObjectRepeat:
      case OPS.paintInlineImageXObjectGroup:
      case OPS.paintImageMaskXObjectGroup:
        // A stencil or a repeated image: what it shows takes pdf.js's own drawing of it to tell.
        this.unknown(boxOf(s.ctm, 0, 0, 1, 1));
        return;
      case OPS.shadingFill:
        this.unknown(s.clip);
        return;
      case OPS.dependency:
      case OPS.setLineCap:
      case OPS.setLineJoin:
      case OPS.setMiterLimit:
      case OPS.setDash:
      case OPS.setRenderingIntent:
      case OPS.setFlatness:
      case OPS.beginMarkedContent:
      case OPS.endMarkedContent:
      case OPS.markPoint:
      case OPS.markPointProps:
      case OPS.beginCompat:
      case OPS.endCompat:
        return;
      default:
        throw new Unmodelled(`operator ${fn}`);
    }
  }

  private gstate(key: string, value: unknown): void {
    const s = this.state;
    switch (key) {
      case 'ca':
        s.fillAlpha = Number(value);
        return;
      case 'CA':
        s.strokeAlpha = Number(value);
        return;
      case 'LW':
        s.lineWidth = Number(value);
        return;
      case 'Font': {
        const [name, size] = value as [string, number];
        this.setFont(name, size);
        return;
      }
      case 'BM':
        // Plain painting, or modes that only darken: dark paint is ink under both.
        if (value !== 'source-over' && value !== 'multiply' && value !== 'darken') throw new Unmodelled();
        return;
      case 'SMask':
        if (value) throw new Unmodelled();
        return;
      case 'TR':
        if (value !== null && value !== undefined && value !== false) throw new Unmodelled();
        return;
      default:
        return;
    }
  }

  private setFont(name: string, size: number): void {
    const s = this.state;
    let font: FontInfo;
    try {
      font = this.objects.font(name);
    } catch {
      throw new Unmodelled();
    }
    if (!font || font.isType3Font || font.vertical || size < 0) throw new Unmodelled();
    s.font = font;
    s.fontSize = size;
  }

  /** A path painted and/or made the clip, as pdf.js's constructPath does: paint first, then clip. */
  private path(op: number, data: unknown): void {
    const s = this.state;
    const pathData = Array.isArray(data) ? data[0] : undefined;
    if (!(pathData instanceof Float32Array) && !Array.isArray(pathData)) throw new Unmodelled();
    const subpaths = parsePath(pathData as ArrayLike<number>, s.ctm);
    const fills =
      op === OPS.fill ||
      op === OPS.eoFill ||
      op === OPS.fillStroke ||
      op === OPS.eoFillStroke ||
      op === OPS.closeFillStroke ||
      op === OPS.closeEOFillStroke;
    const strokes =
      op === OPS.stroke ||
      op === OPS.closeStroke ||
      op === OPS.fillStroke ||
      op === OPS.eoFillStroke ||
      op === OPS.closeFillStroke ||
      op === OPS.closeEOFillStroke;
    if (fills) this.fillPath(subpaths, s.fill, s.fillAlpha);
    if (strokes) this.strokePath(subpaths, s.stroke, s.strokeAlpha);
    if (this.pendingClip) {
      this.pendingClip = false;
      // A clip that is not one rectangle (a frame cut out by even-odd, a rounded box) is taken as its
      // bounding box, and marked inexact: nothing light is cleared inside it (paint, s.clipExact).
      const box = boundsOf(subpaths);
      s.clip = box ? intersect(s.clip, box) : [0, 0, 0, 0];
      if (!(subpaths.length === 1 && subpaths[0]!.rect)) s.clipExact = false;
    }
  }

  private fillPath(subpaths: Subpath[], paint: Paint, alpha: number): void {
    if (subpaths.length === 0) return;
    if (paint.kind === 'none') return;
    const bounds = boundsOf(subpaths)!;
    if (paint.kind === 'unmodelled') {
      this.unknown(intersect(bounds, this.state.clip));
      return;
    }
    const ink = inkOf(paint, alpha);
    if (ink === null) return;
    const rects = subpaths.map((p) => p.rect);
    if (rects.every((r) => r !== null)) {
      for (const r of rects) this.paint(r!, ink);
    } else if (ink) {
      // A dark shape that is not a set of rectangles: its box is ink (a little too much, never too little).
      this.paint(bounds, true);
    } else {
      // A light shape that is not a set of rectangles (a rounded box, a radio button): where it covers
      // much of a glyph drawn before it, only pixels can tell what shows. A background drawn before its
      // text covers none; one that grazes a glyph's box (under a quarter of it) leaves the glyph's word
      // and its last character as inked as they were.
      const region = intersect(bounds, this.state.clip);
      if (this.textBoxes.some((t) => overlapArea(region, t) >= 0.25 * area(t))) this.unknown(region);
    }
  }

  private strokePath(subpaths: Subpath[], paint: Paint, alpha: number): void {
    if (paint.kind !== 'colour' || inkOf(paint, alpha) !== true) return;
    // Rules and box edges: each straight segment along an axis, as wide as the line (a hairline is a pixel).
    const half = Math.max(0.5, (this.state.lineWidth * scaleOf(this.state.ctm)) / 2);
    for (const p of subpaths) {
      const pts = p.closed && p.points.length > 1 ? [...p.points, p.points[0]!] : p.points;
      for (let i = 1; i < pts.length; i++) {
        const [x0, y0] = pts[i - 1]!;
        const [x1, y1] = pts[i]!;
        if (Math.abs(y1 - y0) < 0.01)
          this.paint([Math.min(x0, x1) - half, y0 - half, Math.max(x0, x1) + half, y0 + half], true);
        else if (Math.abs(x1 - x0) < 0.01)
          this.paint([x0 - half, Math.min(y0, y1) - half, x0 + half, Math.max(y0, y1) + half], true);
      }
    }
  }

  private showText(glyphs: (Glyph | number)[]): void {
    const s = this.state;
    const font = s.font;
    if (!font) throw new Unmodelled();
    if (s.fontSize === 0) return;
    // Modes 0–3 fill, stroke, both or neither; 4–7 the same, and add the glyphs to the clip.
    const mode = s.renderMode & 3;
    const clips = s.renderMode >= 4;
    if (clips && this.textClip === undefined) this.textClip = null;
    const paint =
      mode === 0 || mode === 2
        ? inkOf(s.fill, s.fillAlpha)
        : mode === 1
          ? s.stroke.kind === 'colour'
            ? inkOf(s.stroke, s.strokeAlpha)
            : null
          : null;
    if ((mode === 0 || mode === 2) && s.fill.kind === 'unmodelled') throw new Unmodelled();
    const advanceScale = s.fontSize * (font.fontMatrix?.[0] ?? 0.001);
    // Text space to device: the text matrix, then the current transform; a glyph's box runs from a fifth
    // of the size below the baseline to four fifths above, the box the word check looks in.
    const m = multiply(s.ctm, s.textMatrix);
    const bottom = s.y + s.rise - 0.2 * s.fontSize;
    const top = s.y + s.rise + 0.8 * s.fontSize;
    let x = 0;
    for (const glyph of glyphs) {
      if (typeof glyph === 'number') {
        x -= (glyph * s.fontSize) / 1000;
        continue;
      }
      const advance = glyph.width * advanceScale;
      if ((glyph.isInFont || font.missingFile) && !/^\s*$/u.test(glyph.unicode)) {
        // A glyph's ink stands inside its advance, clear of its side bearings: a box as wide as the
        // advance would put ink past a clip that cuts exactly between two characters.
        const box = boxOf(
          m,
          s.x + (x + advance * GLYPH_INSET) * s.hScale,
          bottom,
          s.x + (x + advance * (1 - GLYPH_INSET)) * s.hScale,
          top,
        );
        this.textBoxes.push(box);
        if (paint === true && axisAligned(m)) this.paint(box, true);
        if (clips) this.textClip = this.textClip ? union(this.textClip, box) : box;
      }
      x += advance + (glyph.isSpace ? s.wordSpacing : 0) + s.charSpacing;
    }
    s.x += x * s.hScale;
  }

  /**
   * An image fills the unit square of user space: each pixel it covers takes the ink or paper of the
   * image's sample there (a scan under its own text layer, a logo, a signature). An image set at an angle,
   * or one pdf.js hands over in another form, is unknown paint.
   */
  private image(get: () => ImageData): void {
    const s = this.state;
    const box = intersect(boxOf(s.ctm, 0, 0, 1, 1), s.clip);
    let img: ImageData;
    try {
      img = get();
    } catch {
      this.unknown(box);
      return;
    }
    const { width: w, height: h, kind, data } = img ?? {};
    if (!data || !w || !h || !(kind === 1 || kind === 2 || kind === 3) || !axisAligned(s.ctm) || s.fillAlpha < 1) {
      this.unknown(box);
      return;
    }
    const inv = invert(s.ctm);
    if (!inv) return;
    const x0 = Math.max(0, Math.round(box[0]));
    const x1 = Math.min(this.width, Math.round(box[2]));
    const y0 = Math.max(0, Math.round(box[1]));
    const y1 = Math.min(this.height, Math.round(box[3]));
    // The walk is synchronous: a page of many large images would hold its thread, where a render can be stopped.
    this.imagePixels += Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
    if (this.imagePixels > MAX_IMAGE_PIXELS) throw new Unmodelled('image pixels');
    const rowBytes = kind === 1 ? (w + 7) >> 3 : w * (kind === 2 ? 3 : 4);
    // The matrix is axis-aligned: a device column maps to one image column (or row, turned a quarter),
    // and a device row to one image row, so each is worked out once rather than per pixel.
    const turned = Math.abs(s.ctm[0]) < 1e-9;
    const sample = (v: number, size: number) => Math.min(size - 1, Math.max(0, Math.floor(v * size)));
    const cols = new Int32Array(Math.max(0, x1 - x0));
    const rows = new Int32Array(Math.max(0, y1 - y0));
    for (let x = x0; x < x1; x++) {
      // The pixel's centre in the unit square; the image's first row is at its top (y = 1).
      const u = turned ? inv[1] * (x + 0.5) + inv[5] : inv[0] * (x + 0.5) + inv[4];
      cols[x - x0] = turned ? sample(1 - u, h) : sample(u, w);
    }
    for (let y = y0; y < y1; y++) {
      const v = turned ? inv[2] * (y + 0.5) + inv[4] : inv[3] * (y + 0.5) + inv[5];
      rows[y - y0] = turned ? sample(v, w) : sample(1 - v, h);
    }
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const col = turned ? rows[y - y0]! : cols[x - x0]!;
        const row = turned ? cols[x - x0]! : rows[y - y0]!;
        let luminance: number;
        if (kind === 1) {
          luminance = (data[row * rowBytes + (col >> 3)]! >> (7 - (col & 7))) & 1 ? 255 : 0;
        } else {
          const p = row * rowBytes + col * (kind === 2 ? 3 : 4);
          if (kind === 3 && data[p + 3]! < 128) continue; // transparent there: what was below shows
          luminance = data[p]! * 0.299 + data[p + 1]! * 0.587 + data[p + 2]! * 0.114;
        }
        if (luminance < INK_LUMINANCE) this.ink[y * this.width + x] = 1;
        else if (s.clipExact) this.ink[y * this.width + x] = 0;
      }
    }
  }

  private unknown(box: Box): void {
    if (box[2] <= box[0] || box[3] <= box[1]) return;
    this.unknownRegions.push(box);
    if (this.unknownRegions.length > MAX_UNKNOWN_REGIONS) throw new Unmodelled('unknown regions');
  }

  /**
   * Sets (ink) or clears (paper) the pixels a box covers at least half of, within the clip. Within an
   * inexact clip light paint clears nothing: what it covers there, only pixels could tell, and text is
   * kept rather than lost (as it was before any check).
   */
  private paint(box: Box, ink: boolean): void {
    if (!ink && !this.state.clipExact) return;
    const [cx0, cy0, cx1, cy1] = this.state.clip;
    const x0 = Math.max(0, Math.round(Math.max(box[0], cx0)));
    const x1 = Math.min(this.width, Math.round(Math.min(box[2], cx1)));
    const y0 = Math.max(0, Math.round(Math.max(box[1], cy0)));
    const y1 = Math.min(this.height, Math.round(Math.min(box[3], cy1)));
    const value = ink ? 1 : 0;
    this.paintedPixels += Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
    if (this.paintedPixels > MAX_PAINTED_PIXELS) throw new Unmodelled('painted pixels');
    for (let y = y0; y < y1; y++) this.ink.fill(value, y * this.width + x0, y * this.width + Math.max(x0, x1));
  }
}

function initialState(base: Matrix, clip: Box): State {
  return {
    ctm: base,
    clip,
    clipExact: true,
    fill: { kind: 'colour', luminance: 0 },
    stroke: { kind: 'colour', luminance: 0 },
    fillAlpha: 1,
    strokeAlpha: 1,
    lineWidth: 1,
    font: null,
    fontSize: 0,
    charSpacing: 0,
    wordSpacing: 0,
    hScale: 1,
    leading: 0,
    rise: 0,
    renderMode: 0,
    textMatrix: IDENTITY,
    x: 0,
    y: 0,
    lineX: 0,
    lineY: 0,
  };
}

/** pdf.js gives plain colours as "#rrggbb". */
function colour(value: unknown): Paint {
  if (typeof value !== 'string' || !/^#[0-9a-f]{6}$/i.test(value)) return { kind: 'unmodelled' };
  const n = Number.parseInt(value.slice(1), 16);
  return { kind: 'colour', luminance: ((n >> 16) & 255) * 0.299 + ((n >> 8) & 255) * 0.587 + (n & 255) * 0.114 };
}

/** Whether paint of this colour and opacity, over white paper, is ink (true), paper (false), or nothing (null). */
function inkOf(paint: Paint, alpha: number): boolean | null {
  if (paint.kind !== 'colour' || alpha <= 0) return null;
  const over = 255 - Math.min(1, alpha) * (255 - paint.luminance);
  // Translucent light paint over ink leaves ink: it clears only when opaque.
  if (over >= INK_LUMINANCE) return alpha >= 1 ? false : null;
  return true;
}

interface Subpath {
  points: [number, number][];
  closed: boolean;
  curved: boolean;
  /** The subpath's device box when it is exactly an axis-aligned rectangle there. */
  rect: Box | null;
}

/** pdf.js's path data (DrawOPS: moveTo 0, lineTo 1, curveTo 2, quadraticCurveTo 3, closePath 4), in device space. */
function parsePath(data: ArrayLike<number>, m: Matrix): Subpath[] {
  const out: Subpath[] = [];
  let current: Subpath | null = null;
  const at = (x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  for (let i = 0; i < data.length; ) {
    const code = data[i++];
    if (code === 0) {
      current = { points: [at(data[i]!, data[i + 1]!)], closed: false, curved: false, rect: null };
      out.push(current);
      i += 2;
    } else if (code === 1) {
      current?.points.push(at(data[i]!, data[i + 1]!));
      i += 2;
    } else if (code === 2 || code === 3) {
      const n = code === 2 ? 6 : 4;
      if (current) {
        current.curved = true;
        for (let k = 0; k < n; k += 2) current.points.push(at(data[i + k]!, data[i + k + 1]!));
      }
      i += n;
    } else if (code === 4) {
      if (current) current.closed = true;
    } else {
      throw new Unmodelled();
    }
  }
  for (const p of out) p.rect = p.curved ? null : rectOf(p.points);
  return out;
}

/** The axis-aligned rectangle these points outline (4 corners, or 5 with the first repeated), or null. */
function rectOf(points: [number, number][]): Box | null {
  let pts = points;
  if (pts.length === 5 && near(pts[0]!, pts[4]!)) pts = pts.slice(0, 4);
  if (pts.length !== 4) return null;
  for (let i = 0; i < 4; i++) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[(i + 1) % 4]!;
    if (Math.abs(x1 - x0) > 0.01 && Math.abs(y1 - y0) > 0.01) return null;
  }
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function near(a: [number, number], b: [number, number]): boolean {
  return Math.abs(a[0] - b[0]) < 0.01 && Math.abs(a[1] - b[1]) < 0.01;
}

function boundsOf(subpaths: Subpath[]): Box | null {
  let box: Box | null = null;
  for (const p of subpaths) {
    for (const [x, y] of p.points)
      box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
  }
  return box;
}

/** m × n: n applied first, as canvas's transform() composes. */
function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/** The device box of the user-space box (x0, y0)–(x1, y1) under m. */
function boxOf(m: Matrix, x0: number, y0: number, x1: number, y1: number): Box {
  const xs = [m[0] * x0 + m[2] * y0, m[0] * x1 + m[2] * y0, m[0] * x0 + m[2] * y1, m[0] * x1 + m[2] * y1].map(
    (v) => v + m[4],
  );
  const ys = [m[1] * x0 + m[3] * y0, m[1] * x1 + m[3] * y0, m[1] * x0 + m[3] * y1, m[1] * x1 + m[3] * y1].map(
    (v) => v + m[5],
  );
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function invert(m: Matrix): Matrix | null {
  const det = m[0] * m[3] - m[1] * m[2];
  if (Math.abs(det) < 1e-12) return null;
  return [
    m[3] / det,
    -m[1] / det,
    -m[2] / det,
    m[0] / det,
    (m[2] * m[5] - m[3] * m[4]) / det,
    (m[1] * m[4] - m[0] * m[5]) / det,
  ];
}

/** Whether m keeps axis-aligned boxes axis-aligned (no rotation but by quarter turns, no skew). */
function axisAligned(m: Matrix): boolean {
  return (Math.abs(m[1]) < 1e-9 && Math.abs(m[2]) < 1e-9) || (Math.abs(m[0]) < 1e-9 && Math.abs(m[3]) < 1e-9);
}

/** How much m scales lengths (the square root of its determinant's size). */
function scaleOf(m: Matrix): number {
  return Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
}

function intersect(a: Box, b: Box): Box {
  const box: Box = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return box[2] < box[0] || box[3] < box[1] ? [box[0], box[1], box[0], box[1]] : box;
}

function area(b: Box): number {
  return Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
}

function overlapArea(a: Box, b: Box): number {
  return (
    Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]))
  );
}

function union(a: Box, b: Box): Box {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

function overlaps(a: Box, b: Box): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}
