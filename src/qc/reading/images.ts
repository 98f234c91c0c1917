// Decodes uploaded images (PNG, JPEG, TIFF with every frame, WEBP, GIF, BMP) into the 8-bit greyscale
// bitmaps OCR reads, refusing decompression bombs before any pixel buffer is allocated.
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import { MAX_IMAGE_PIXELS } from './page.js';
import { flattenPaper } from './paper.js';
import type { OcrPixels } from './render.js';
import { errorMessage } from '../error-message.js';

/** Most frames read from one multi-page TIFF. */
export const MAX_IMAGE_FRAMES = 500;

/** Around 300 dpi for a Letter page: where tesseract is both accurate and quickest per character. */
const OCR_TARGET_PIXELS = 2550 * 3300;
/** Frames larger than this are scaled down to OCR_TARGET_PIXELS; OCR time grows with pixel count. */
const OCR_MAX_PIXELS = 12_500_000;
/** Frames narrower than this (a Letter page under 200 dpi) are scaled up, at most 2x: small glyphs OCR poorly. */
const OCR_MIN_WIDTH = 1700;
/** A decode that takes longer than this is a pathological file, not a page. */
const DECODE_TIMEOUT_SECONDS = 60;

/** The input is not an image we will decode; `message` says why, fit for a finding's summary. */
export class ImageRefused extends Error {
  override name = 'ImageRefused';
}

/**
 * One frame ready for OCR: 8-bit grey pixels, rows top to bottom (as a PGM, tesseract reads them with no
 * decoding cost).
 */
export interface OcrBitmap {
  grey: Uint8Array;
  width: number;
  height: number;
}

/** A binary PGM's header for the bitmap: its pixels follow as they are. */
export function pgmHeader(bitmap: OcrBitmap): Uint8Array {
  return Buffer.from(`P5\n${bitmap.width} ${bitmap.height}\n255\n`, 'ascii');
}

/**
 * The bitmap as one binary PGM file's bytes (tesseract.js takes a file; native tesseract is written header
 * and pixels apart).
 */
export function pgmOf(bitmap: OcrBitmap): Uint8Array {
  const header = pgmHeader(bitmap);
  const out = new Uint8Array(header.length + bitmap.grey.length);
  out.set(header, 0);
  out.set(bitmap.grey, header.length);
  return out;
}

/** An opened image: its frame count is known up front, frames are decoded one at a time on demand. */
export interface ImageFrames {
  count: number;
  frame(index: number): Promise<OcrBitmap>;
}

const SHARP_TYPES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/webp', 'image/gif']);

/** Opens `bytes` (of sniffed type `mime`); throws ImageRefused for anything unsupported, corrupt or too big. */
export async function openImage(bytes: Uint8Array, mime: string): Promise<ImageFrames> {
  if (mime === 'image/bmp') return openBmp(bytes);
  if (!SHARP_TYPES.has(mime)) throw new ImageRefused(`unsupported image type ${mime}`);
  const first = await headerOf(bytes, 0);
  // Only TIFF frames are pages; the frames of an animated GIF or WEBP repeat one picture.
  const count = mime === 'image/tiff' ? (first.pages ?? 1) : 1;
  if (count > MAX_IMAGE_FRAMES) {
    throw new ImageRefused(`image has ${count} frames; at most ${MAX_IMAGE_FRAMES} are read`);
  }
  return {
    count,
    async frame(index) {
      const header = index === 0 ? first : await headerOf(bytes, index);
      const { width, height } = header.autoOrient;
      return toOcrBitmap(sharp(bytes, decodeOptions(index)).autoOrient(), width, height);
    },
  };
}

/**
 * A PDF page drawn for OCR (render.ts renderPageForOcr), at OCR resolution already: greyed as an image is,
 * unless it came grey (its plane is then what greying would give), and its paper evened out. A render is
 * opaque (pdf.js fills the page white before it draws), so its alpha is dropped rather than flattened onto
 * white, and its sRGB greyed as the output's colour space: the bytes flatten and grayscale give (a unit
 * test checks every opaque colour), for some 60% of their CPU.
 */
export async function bitmapOfRender({ data, channels, width, height }: OcrPixels): Promise<OcrBitmap> {
  checkPixels(width, height);
  if (channels === 1) return { grey: paperFlattening ? await flattenPaper(data, width, height) : data, width, height };
  try {
    const grey = await sharp(data, { raw: { width, height, channels } })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .removeAlpha()
      .toColourspace('b-w')
      .raw({ depth: 'uchar' })
      .toBuffer();
    return { grey: paperFlattening ? await flattenPaper(grey, width, height) : grey, width, height };
  } catch (err) {
    throw new ImageRefused(`image cannot be decoded (${errorMessage(err)})`);
  }
}

function decodeOptions(page: number): SharpOptions {
  // failOn 'error': a libvips warning (an odd but decodable file) does not refuse a page; a real error,
  // truncation included, does, so a damaged scan is reported rather than read half-way.
  return { page, limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' };
}

/** Reads only the header, so the pixel limit is checked before anything is decoded. */
async function headerOf(bytes: Uint8Array, page: number): Promise<Metadata & { width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { page, limitInputPixels: false }).metadata();
  } catch (err) {
    throw new ImageRefused(`image cannot be decoded (${errorMessage(err)})`);
  }
  const { width, height } = meta;
  if (!width || !height) throw new ImageRefused('image has no dimensions');
  checkPixels(width, height);
  return { ...meta, width, height };
}

function checkPixels(width: number, height: number): void {
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ImageRefused(
      `image is ${width}×${height} pixels, over the ${MAX_IMAGE_PIXELS / 1_000_000} megapixel limit`,
    );
  }
}

let paperFlattening = true;
/**
 * Turns the flattening of unevenly lit paper (paper.ts) on or off; returns the previous setting. On by
 * default; `npm run bench:reading` measures OCR with and without it.
 */
export function setPaperFlattening(on: boolean): boolean {
  const previous = paperFlattening;
  paperFlattening = on;
  return previous;
}

/** Flattens onto white, greys and rescales towards ~300 dpi, and evens out unevenly lit paper. */
async function toOcrBitmap(image: Sharp, width: number, height: number, rescale = true): Promise<OcrBitmap> {
  const target = rescale ? ocrSize(width, height) : { width, height };
  try {
    image.timeout({ seconds: DECODE_TIMEOUT_SECONDS }).flatten({ background: '#ffffff' });
    if (target.width !== width || target.height !== height) {
      image.resize(target.width, target.height, { fit: 'fill', kernel: 'lanczos3' });
    }
    const { data, info } = await image.grayscale().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`expected one channel, got ${info.channels}`);
    const grey = paperFlattening ? await flattenPaper(data, info.width, info.height) : data;
    // sharp's own buffer, not copied behind a header: a page's 8 MB allocated once, not twice.
    return { grey, width: info.width, height: info.height };
  } catch (err) {
    throw new ImageRefused(`image cannot be decoded (${errorMessage(err)})`);
  }
}

function ocrSize(width: number, height: number): { width: number; height: number } {
  let factor = 1;
  if (width * height > OCR_MAX_PIXELS) factor = Math.sqrt(OCR_TARGET_PIXELS / (width * height));
  else if (width < OCR_MIN_WIDTH) factor = Math.min(2, OCR_MIN_WIDTH / width);
  return { width: Math.max(1, Math.round(width * factor)), height: Math.max(1, Math.round(height * factor)) };
}

// ---------------------------------------------------------------------------------------------------
// BMP. The prebuilt libvips that sharp ships has no BMP loader, and bmp-js misreads the V4/V5 headers
// most tools write today, so BMP is decoded here: every bit depth, top-down rows, bit fields, RLE.

const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;
const BI_JPEG = 4;
const BI_PNG = 5;
const BI_ALPHABITFIELDS = 6;

/** A BMP decoded to 8-bit grey, one byte per pixel, rows top to bottom. */
export interface GreyBitmap {
  width: number;
  height: number;
  grey: Uint8Array;
}

async function openBmp(bytes: Uint8Array): Promise<ImageFrames> {
  const bmp = parseBmp(bytes);
  // BI_JPEG / BI_PNG: the pixel array is a whole embedded JPEG or PNG file.
  if (bmp.compression === BI_JPEG || bmp.compression === BI_PNG) {
    const embedded = bytes.subarray(bmp.dataOffset);
    return openImage(embedded, bmp.compression === BI_PNG ? 'image/png' : 'image/jpeg');
  }
  return {
    count: 1,
    async frame() {
      const { width, height, grey } = decodeBmpPixels(bytes, bmp);
      return toOcrBitmap(sharp(grey, { raw: { width, height, channels: 1 } }), width, height);
    },
  };
}

/** Decodes a BMP to grey; throws ImageRefused for a malformed, truncated or oversized file. */
export function decodeBmp(bytes: Uint8Array): GreyBitmap {
  const bmp = parseBmp(bytes);
  if (bmp.compression === BI_JPEG || bmp.compression === BI_PNG) {
    throw new ImageRefused('BMP holds an embedded JPEG or PNG; open it with openImage');
  }
  return decodeBmpPixels(bytes, bmp);
}

interface BmpHeader {
  width: number;
  height: number;
  topDown: boolean;
  bitsPerPixel: number;
  compression: number;
  dataOffset: number;
  /** Grey level of each palette entry, for 1, 4 and 8 bits per pixel. */
  palette: Uint8Array;
  masks: [number, number, number];
}

function parseBmp(bytes: Uint8Array): BmpHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw new ImageRefused('not a BMP file');
  const dataOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  const core = headerSize === 12;
  if (!core && (headerSize < 40 || bytes.length < 14 + headerSize)) {
    throw new ImageRefused('BMP header is malformed');
  }
  const width = core ? view.getUint16(18, true) : view.getInt32(18, true);
  const rawHeight = core ? view.getUint16(20, true) : view.getInt32(22, true);
  const bitsPerPixel = view.getUint16(core ? 24 : 28, true);
  const compression = core ? BI_RGB : view.getUint32(30, true);
  const colorsUsed = core ? 0 : view.getUint32(46, true);
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) throw new ImageRefused('BMP has no dimensions');
  checkPixels(width, height);
  if (dataOffset >= bytes.length) throw new ImageRefused('BMP is truncated');
  if (compression === BI_JPEG || compression === BI_PNG) {
    return {
      width,
      height,
      topDown: rawHeight < 0,
      bitsPerPixel,
      compression,
      dataOffset,
      palette: new Uint8Array(0),
      masks: [0, 0, 0],
    };
  }

  // Bit-field masks sit right after a 40-byte header, or inside the V2+ header at the same offsets.
  let masks: [number, number, number] = bitsPerPixel === 16 ? [0x7c00, 0x03e0, 0x001f] : [0xff0000, 0x00ff00, 0x0000ff];
  let paletteStart = 14 + headerSize;
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    if (bitsPerPixel !== 16 && bitsPerPixel !== 32) throw new ImageRefused('BMP bit fields need 16 or 32 bits');
    if (bytes.length < 66) throw new ImageRefused('BMP is truncated');
    masks = [view.getUint32(54, true), view.getUint32(58, true), view.getUint32(62, true)];
    if (headerSize === 40) paletteStart += compression === BI_ALPHABITFIELDS ? 16 : 12;
  } else if (
    compression === BI_RLE8 ? bitsPerPixel !== 8 : compression === BI_RLE4 ? bitsPerPixel !== 4 : compression !== BI_RGB
  ) {
    throw new ImageRefused(`BMP compression ${compression} with ${bitsPerPixel} bits is not supported`);
  }
  if (![1, 4, 8, 16, 24, 32].includes(bitsPerPixel))
    throw new ImageRefused(`BMP with ${bitsPerPixel} bits per pixel is not supported`);

  let palette = new Uint8Array(0);
  if (bitsPerPixel <= 8) {
    const entries = Math.min(colorsUsed || 1 << bitsPerPixel, 1 << bitsPerPixel);
    const entrySize = core ? 3 : 4;
    if (paletteStart + entries * entrySize > bytes.length) throw new ImageRefused('BMP is truncated');
    // Unlisted indices stay white, the colour of paper.
    palette = new Uint8Array(1 << bitsPerPixel).fill(255);
    for (let i = 0; i < entries; i++) {
      const at = paletteStart + i * entrySize;
      palette[i] = luma(bytes[at + 2] ?? 0, bytes[at + 1] ?? 0, bytes[at] ?? 0);
    }
  }
  return { width, height, topDown: rawHeight < 0, bitsPerPixel, compression, dataOffset, palette, masks };
}

function decodeBmpPixels(bytes: Uint8Array, bmp: BmpHeader): GreyBitmap {
  const { width, height } = bmp;
  const grey = new Uint8Array(width * height).fill(255);
  if (bmp.compression === BI_RLE8 || bmp.compression === BI_RLE4) {
    decodeRle(bytes, bmp, grey);
    return { width, height, grey };
  }
  const stride = Math.floor((bmp.bitsPerPixel * width + 31) / 32) * 4;
  // The last row need not be padded.
  const needed = bmp.dataOffset + stride * (height - 1) + Math.ceil((bmp.bitsPerPixel * width) / 8);
  if (needed > bytes.length) throw new ImageRefused('BMP is truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const channel = bmp.masks.map(maskReader);
  for (let row = 0; row < height; row++) {
    const src = bmp.dataOffset + row * stride;
    const out = (bmp.topDown ? row : height - 1 - row) * width;
    for (let x = 0; x < width; x++) {
      let value: number;
      switch (bmp.bitsPerPixel) {
        case 1:
          value = bmp.palette[((bytes[src + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1] ?? 255;
          break;
        case 4:
          value = bmp.palette[((bytes[src + (x >> 1)] ?? 0) >> (x & 1 ? 0 : 4)) & 0xf] ?? 255;
          break;
        case 8:
          value = bmp.palette[bytes[src + x] ?? 0] ?? 255;
          break;
        case 24:
          value = luma(bytes[src + x * 3 + 2] ?? 0, bytes[src + x * 3 + 1] ?? 0, bytes[src + x * 3] ?? 0);
          break;
        default: {
          const px = bmp.bitsPerPixel === 16 ? view.getUint16(src + x * 2, true) : view.getUint32(src + x * 4, true);
          value = luma(channel[0]!(px), channel[1]!(px), channel[2]!(px));
        }
      }
      grey[out + x] = value;
    }
  }
  return { width, height, grey };
}

/**
 * RLE8 / RLE4 (always bottom-up): runs, literal runs, end of line, delta, end of bitmap. A run that goes
 * past the row's end is cut there (what lies beyond is not drawn, as other decoders do), so the work is
 * at most one step per pixel and per byte of the file, however long the runs it declares: a file of
 * runs far past its rows cannot keep a reader busy.
 */
function decodeRle(bytes: Uint8Array, bmp: BmpHeader, grey: Uint8Array): void {
  const { width, height, palette } = bmp;
  const four = bmp.compression === BI_RLE4;
  let at = bmp.dataOffset;
  let x = 0;
  let y = 0; // counted from the bottom row
  /** Draws `count` pixels from x on: index(i) is the i-th one's palette index. */
  const draw = (count: number, index: (i: number) => number): void => {
    const drawn = y < height ? Math.max(0, Math.min(count, width - x)) : 0;
    const row = (height - 1 - y) * width + x;
    for (let i = 0; i < drawn; i++) grey[row + i] = palette[index(i)] ?? 255;
    x += count;
  };
  while (at + 1 < bytes.length && y < height) {
    const count = bytes[at++] ?? 0;
    const value = bytes[at++] ?? 0;
    if (count > 0) {
      draw(count, four ? (i) => (i & 1 ? value & 0xf : value >> 4) : () => value);
    } else if (value === 0) {
      x = 0;
      y++;
    } else if (value === 1) {
      return;
    } else if (value === 2) {
      x += bytes[at++] ?? 0;
      y += bytes[at++] ?? 0;
    } else {
      const start = at;
      draw(value, (i) => {
        const byte = bytes[start + (four ? i >> 1 : i)] ?? 0;
        return four ? (i & 1 ? byte & 0xf : byte >> 4) : byte;
      });
      const length = four ? Math.ceil(value / 2) : value;
      at += length + (length & 1); // literal runs are padded to a 16-bit boundary
    }
  }
}

function maskReader(mask: number): (px: number) => number {
  if (mask === 0) return () => 0;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (px) => Math.round((((px & mask) >>> shift) * 255) / max);
}

function luma(r: number, g: number, b: number): number {
  return (r * 77 + g * 150 + b * 29) >> 8;
}
