// Hard cases made from clean PDFs, as lenders' files arrive: each page rendered at a scanner's or a phone's
// resolution, turned a little, sheared (a photo taken at an angle), speckled and JPEG-compressed, as one
// image per page or as an image-only PDF. Seeded: the same settings give the same bytes.
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { renderPdfPage } from '../../src/qc/reading/render.js';

export interface Degradation {
  /** Label for reports: "200 dpi, 1.5°, noise 12, JPEG 50". */
  name: string;
  dpi: number;
  /** Degrees, clockwise. */
  angle: number;
  /** Horizontal shear (a photo taken at an angle): 0 for a flatbed scan. */
  shear?: number;
  /** Amplitude of the speckle added to every pixel (0–255). */
  noise: number;
  /** A shadow across the page (a phone held over it): the far corner's light is this much dimmer (0–1). */
  shade?: number;
  jpegQuality: number;
}

export const DEGRADATIONS: Degradation[] = [
  { name: '300 dpi, 0.5°, light noise, JPEG 85', dpi: 300, angle: 0.5, noise: 8, jpegQuality: 85 },
  { name: '200 dpi, -1.5°, noise, JPEG 50', dpi: 200, angle: -1.5, noise: 18, jpegQuality: 50 },
  { name: '150 dpi, 3°, noise, JPEG 40', dpi: 150, angle: 3, noise: 20, jpegQuality: 40 },
  {
    name: 'phone photo: 200 dpi, 1°, shear 0.03, noise, JPEG 60',
    dpi: 200,
    angle: 1,
    shear: 0.03,
    noise: 14,
    jpegQuality: 60,
  },
  {
    name: 'phone photo in a shadow: 200 dpi, 1°, shade 0.6, JPEG 60',
    dpi: 200,
    angle: 1,
    noise: 10,
    shade: 0.6,
    jpegQuality: 60,
  },
];

/** Each page of `pdf` as a degraded JPEG. */
export async function degradedPages(pdf: Uint8Array, d: Degradation, pages?: number[]): Promise<Buffer[]> {
  const count = (await PDFDocument.load(pdf)).getPageCount();
  const out: Buffer[] = [];
  for (const number of pages ?? Array.from({ length: count }, (_, i) => i + 1)) {
    out.push(await degrade(await renderPdfPage(pdf, number, d.dpi), d, number));
  }
  return out;
}

async function degrade(png: Uint8Array, d: Degradation, seed: number): Promise<Buffer> {
  let image = sharp(png).flatten({ background: '#ffffff' }).greyscale().rotate(d.angle, { background: '#ffffff' });
  if (d.shear) image = sharp(await image.png().toBuffer()).affine([1, d.shear, 0, 1], { background: '#ffffff' });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  const random = mulberry32(seed * 7919 + Math.round(d.angle * 100) + d.dpi);
  const grey = new Uint8Array(info.width * info.height);
  for (let i = 0; i < grey.length; i++) {
    // The shadow deepens from the top-left corner to the bottom-right one, darkening paper and ink alike.
    const light = d.shade
      ? 1 - d.shade * (((i % info.width) / info.width + Math.floor(i / info.width) / info.height) / 2)
      : 1;
    const value = data[i * info.channels]! * light + (random() - 0.5) * 2 * d.noise;
    grey[i] = Math.max(0, Math.min(255, Math.round(value)));
  }
  return sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } })
    .jpeg({ quality: d.jpegQuality })
    .toBuffer();
}

/** The pages as one image-only PDF, each image filling a Letter-width page. */
export async function imagePdf(jpegs: readonly Buffer[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const jpeg of jpegs) {
    const image = await doc.embedJpg(jpeg);
    const width = 612;
    const height = (image.height / image.width) * width;
    doc.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  return doc.save();
}

/** A small seeded PRNG: the degradations are the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
