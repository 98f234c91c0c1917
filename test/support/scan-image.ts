// Images that look like scanned strips of a page, drawn with the DejaVu font of the dejavu-fonts-ttf
// package, so OCR tests need no system font and no binary fixture.
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

/** The font family the drawings use, registered once from node_modules. */
export const SCAN_FONT = 'ScanTestSans';
GlobalFonts.registerFromPath(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), SCAN_FONT);

export interface DrawnScan {
  rgba: Buffer;
  width: number;
  height: number;
  png: Buffer;
}

/** A 1700 px white strip (a Letter page's width at 200 dpi) `height` px tall with black 12-pt lines, 200 px apart. */
export function drawScan(lines: readonly string[], height = 600): DrawnScan {
  const width = 1700;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#000000';
  g.font = `34px ${SCAN_FONT}`;
  lines.forEach((line, i) => {
    g.fillText(line, 120, 150 + i * 200);
  });
  const rgba = Buffer.from(g.getImageData(0, 0, width, height).data);
  return { rgba, width, height, png: canvas.toBuffer('image/png') };
}
