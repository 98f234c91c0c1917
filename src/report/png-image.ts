// A PNG placed in a PDF as it is: the PNG's compressed pixels become the image's stream, with the PNG's
// row filters undone by the reader (FlateDecode with predictor 15, which is the same algorithm). pdf-lib's
// embedPng decodes every image to RGBA and deflates it again: a report with a hundred pictures of the
// evidence spent most of its render there. Only what evidence-pictures.ts writes is taken this way
// (palette or grey, 8 bits or fewer, not interlaced, no transparency); anything else goes to embedPng.
import { type PDFDocument, PDFHexString, PDFName, PDFRawStream, type PDFRef } from 'pdf-lib';

export interface PlacedImage {
  ref: PDFRef;
  width: number;
  height: number;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image XObject of `png` in `doc`. */
export async function placePng(doc: PDFDocument, png: Uint8Array): Promise<PlacedImage> {
  const parts = chunksOf(png);
  if (!parts) {
    const image = await doc.embedPng(png);
    return { ref: image.ref, width: image.width, height: image.height };
  }
  const { width, height, bitDepth, palette, data } = parts;
  const colorSpace = palette
    ? [
        PDFName.of('Indexed'),
        PDFName.of('DeviceRGB'),
        palette.length / 3 - 1,
        PDFHexString.of(Buffer.from(palette).toString('hex')),
      ]
    : PDFName.of('DeviceGray');
  const dict = doc.context.obj({
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    BitsPerComponent: bitDepth,
    ColorSpace: colorSpace,
    Filter: 'FlateDecode',
    DecodeParms: { Predictor: 15, Colors: 1, BitsPerComponent: bitDepth, Columns: width },
  });
  return { ref: doc.context.register(PDFRawStream.of(dict, data)), width, height };
}

/** A palette or grey PNG's size, depth, palette and concatenated IDAT; undefined for any other PNG. */
function chunksOf(png: Uint8Array) {
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) return undefined;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let header: { width: number; height: number; bitDepth: number; colorType: number; interlace: number } | undefined;
  let palette: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (data.length !== length) return undefined;
    if (type === 'IHDR')
      header = {
        width: view.getUint32(at + 8),
        height: view.getUint32(at + 12),
        bitDepth: png[at + 16]!,
        colorType: png[at + 17]!,
        interlace: png[at + 20]!,
      };
    else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') return undefined;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (header?.interlace !== 0 || header.bitDepth > 8 || idat.length === 0) return undefined;
  if (header.colorType === 3 && palette) return { ...header, palette, data: concat(idat) };
  if (header.colorType === 0) return { ...header, palette: undefined, data: concat(idat) };
  return undefined;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
