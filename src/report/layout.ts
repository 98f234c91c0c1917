// The report's page writer: US Letter pages filled top to bottom, text wrapped to the column, a new page
// when the next block does not fit, and every page's footer once the page count is known.
import { rgb, type PDFDocument, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';

export const PAGE: [number, number] = [612, 792];
export const MARGIN = 54;
export const WIDTH = PAGE[0] - 2 * MARGIN;
/** Room kept at the bottom of every page for its footer. */
const FOOTER = 28;

export const INK = rgb(0.12, 0.12, 0.14);
export const MUTED = rgb(0.4, 0.4, 0.43);
export const RULE = rgb(0.82, 0.82, 0.85);

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

export interface TextOptions {
  font?: PDFFont;
  size?: number;
  indent?: number;
  color?: RGB;
  /** Width to wrap to (default: the column from the indent). */
  width?: number;
  /** Space after the block. */
  after?: number;
}

export class PageWriter {
  page: PDFPage;
  y: number;
  readonly pages: PDFPage[] = [];

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.page = this.addPage();
    this.y = PAGE[1] - MARGIN;
  }

  private addPage(): PDFPage {
    const page = this.doc.addPage(PAGE);
    this.pages.push(page);
    return page;
  }

  /** Starts a new page unless `height` still fits on this one; true when it did. */
  room(height: number): boolean {
    if (this.y - height >= MARGIN + FOOTER) return false;
    this.newPage();
    return true;
  }

  newPage(): void {
    this.page = this.addPage();
    this.y = PAGE[1] - MARGIN;
  }

  /** Text a font can draw: characters outside its set are shown as '?' rather than failing the render. */
  printable(text: string, font: PDFFont = this.fonts.regular): string {
    const known = charactersOf(font);
    let out = '';
    for (const ch of text.replace(/[\t\r\n]+/g, ' ')) out += known.has(ch.codePointAt(0)!) ? ch : '?';
    return out;
  }

  /**
   * The width of `text` set in `font`: the sum of its characters' advances, each measured once per font.
   * (An embedded font measures a whole string by laying it out, which wrapping does word by word: a
   * 100-finding report spent most of its render there.)
   */
  measure(text: string, font: PDFFont, size: number): number {
    let widths = advances.get(font);
    if (!widths) advances.set(font, (widths = new Map()));
    let total = 0;
    for (const ch of text) {
      let w = widths.get(ch);
      if (w === undefined) widths.set(ch, (w = font.widthOfTextAtSize(ch, 1000)));
      total += w;
    }
    return (total * size) / 1000;
  }

  wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of this.printable(text, font).split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && this.measure(candidate, font, size) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
      // A word wider than the column (a long file name) is cut where it must be.
      while (this.measure(line, font, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && this.measure(line.slice(0, cut), font, size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    if (line) lines.push(line);
    return lines;
  }

  /** Writes wrapped text at the cursor, moving to a new page line by line as needed. */
  text(t: string, o: TextOptions = {}): void {
    const size = o.size ?? 10;
    const font = o.font ?? this.fonts.regular;
    const indent = o.indent ?? 0;
    for (const line of this.wrap(t, font, size, o.width ?? WIDTH - indent)) {
      this.room(size + 4);
      this.page.drawText(line, { x: MARGIN + indent, y: this.y - size, size, font, color: o.color ?? INK });
      this.y -= size + 4;
    }
    this.y -= o.after ?? 0;
  }

  /** A thin horizontal rule across the column. */
  rule(after = 8): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + WIDTH, y: this.y }, thickness: 0.5, color: RULE });
    this.y -= after;
  }

  /**
   * A table: a header row, then rows whose cells wrap within their column; a row that does not fit starts
   * a new page, where the header is repeated.
   */
  table(columns: { header: string; width: number }[], rows: { cells: string[]; colors?: (RGB | undefined)[] }[], size = 8.5): void {
    const line = size + 3;
    const header = () => {
      this.room(line + 6);
      let x = MARGIN;
      for (const c of columns) {
        this.page.drawText(this.printable(c.header, this.fonts.bold), { x, y: this.y - size, size, font: this.fonts.bold, color: MUTED });
        x += c.width;
      }
      this.y -= line + 2;
      this.rule(4);
    };
    header();
    for (const row of rows) {
      const wrapped = row.cells.map((cell, i) => this.wrap(cell, this.fonts.regular, size, columns[i]!.width - 6));
      const height = Math.max(1, ...wrapped.map((w) => w.length)) * line + 3;
      if (this.room(height)) header();
      let x = MARGIN;
      wrapped.forEach((cellLines, i) => {
        cellLines.forEach((l, k) => {
          this.page.drawText(l, { x, y: this.y - size - k * line, size, font: this.fonts.regular, color: row.colors?.[i] ?? INK });
        });
        x += columns[i]!.width;
      });
      this.y -= height;
    }
    this.y -= 6;
  }

  /** "Page x of y" and the given text at the foot of every page. */
  footers(left: string): void {
    const size = 7.5;
    const total = this.pages.length;
    this.pages.forEach((page, i) => {
      const right = `Page ${i + 1} of ${total}`;
      page.drawLine({ start: { x: MARGIN, y: MARGIN + 10 }, end: { x: MARGIN + WIDTH, y: MARGIN + 10 }, thickness: 0.5, color: RULE });
      page.drawText(this.printable(left), { x: MARGIN, y: MARGIN, size, font: this.fonts.regular, color: MUTED });
      const w = this.measure(right, this.fonts.regular, size);
      page.drawText(right, { x: MARGIN + WIDTH - w, y: MARGIN, size, font: this.fonts.regular, color: MUTED });
    });
  }
}

const advances = new WeakMap<PDFFont, Map<string, number>>();
const characterSets = new WeakMap<PDFFont, Set<number>>();
function charactersOf(font: PDFFont): Set<number> {
  let set = characterSets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    characterSets.set(font, set);
  }
  return set;
}
