// Hard cases made from clean PDFs, as lenders' files arrive: each page rendered at a scanner's or a phone's
// resolution, turned a little, sheared (a photo taken at an angle), speckled and JPEG-compressed, as one
// image per page or as an image-only PDF. Seeded: the same settings give the same bytes.
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { renderPdfPage } from '../../src/qc/reading/render.js';
import { seededRandom } from './seeded-random.js';

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
  const random = seededRandom(seed * 7919 + Math.round(d.angle * 100) + d.dpi);
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

/**
 * The pages (JPEG or PNG) as one image-only PDF, each image filling a Letter-width page; or, given the
 * images' `dpi`, a page of the image's own size at that resolution (a sideways page is a landscape one).
 */
export async function imagePdf(images: readonly Buffer[], dpi?: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const bytes of images) {
    // A PNG where lossless pages are wanted (turnedPages), else a JPEG.
    const image = bytes[0] === 0x89 ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    const width = dpi ? (image.width * 72) / dpi : 612;
    const height = (image.height / image.width) * width;
    doc.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  return doc.save();
}

/**
 * Each page of `pdf` drawn at TURNED_DPI and turned clockwise by its entry of `quarterTurns` (cycled: [0, 1, 2, 3]
 * turns page 1 upright, page 2 sideways, …): how scanner feeds and phones deliver pages. As JPEGs, or as PNGs
 * (`lossless`), whose pixels turned back are the upright page's own.
 */
/** What turnedPages draws at: imagePdf(pages, TURNED_DPI) gives each page its size, sideways ones landscape. */
export const TURNED_DPI = 300;

export async function turnedPages(
  pdf: Uint8Array,
  quarterTurns: readonly number[],
  o: { lossless?: boolean } = {},
): Promise<Buffer[]> {
  const count = (await PDFDocument.load(pdf)).getPageCount();
  const out: Buffer[] = [];
  for (let number = 1; number <= count; number++) {
    const turns = quarterTurns[(number - 1) % quarterTurns.length]!;
    const page = sharp(await renderPdfPage(pdf, number, TURNED_DPI))
      .flatten({ background: '#ffffff' })
      .greyscale()
      .rotate(turns * 90);
    out.push(await (o.lossless ? page.png() : page.jpeg({ quality: 90 })).toBuffer());
  }
  return out;
}
