// The report's page writer: US Letter pages filled top to bottom, text wrapped to the column, a new page
// when the next block does not fit, and every page's footer once the page count is known. Whatever it
// draws is tagged (tags.ts): text as an element of the reading order, decoration as an artifact.
import {
  PDFHexString,
  PDFName,
  PDFRef,
  rgb,
  type PDFDocument,
  type PDFField,
  type PDFFont,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import { StructureTree, type StructElement } from './tags.js';

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

/** What a block of text is in the reading order. */
export type TextRole = 'H1' | 'H2' | 'H3' | 'P';

export interface TextOptions {
  /** Default: a paragraph. */
  role?: TextRole;
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
  private readonly structure: StructureTree;
  /** The element new blocks belong to: the document, or the section being written. */
  private parent: StructElement;
  /** The marked content open on the page, which drawing more of the same element continues. */
  private marking: { page: PDFPage; element: StructElement } | null = null;
  /** Set while a caller's callback draws: the writer's own methods would tag its drawing wrongly. */
  private inCallback = false;

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.structure = new StructureTree(doc);
    this.parent = this.structure.document;
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
    this.unmark();
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
    const lines = this.wrap(t, font, size, o.width ?? WIDTH - indent);
    if (lines.length > 0) {
      const element = this.structure.add(o.role ?? 'P', this.parent);
      for (const line of lines) {
        this.room(size + 4);
        this.mark(element);
        this.page.drawText(line, { x: MARGIN + indent, y: this.y - size, size, font, color: o.color ?? INK });
        this.y -= size + 4;
      }
      this.unmark();
    }
    this.y -= o.after ?? 0;
  }

  /** A thin horizontal rule across the column. */
  rule(after = 8): void {
    this.decoration((page) =>
      page.drawLine({
        start: { x: MARGIN, y: this.y },
        end: { x: MARGIN + WIDTH, y: this.y },
        thickness: 0.5,
        color: RULE,
      }),
    );
    this.y -= after;
  }

  /** Paints what is not read (a coloured bar, a box behind text) on this page, as an artifact. */
  decoration(draw: (page: PDFPage) => void): void {
    this.unmark();
    this.structure.beginArtifact(this.page);
    this.callback(() => draw(this.page));
    this.structure.end(this.page);
  }

  /**
   * Paints text placed by the caller (a label beside a form field) on this page, as one element of the
   * reading order.
   */
  paint(role: TextRole, draw: (page: PDFPage) => void): void {
    this.mark(this.structure.add(role, this.parent));
    this.callback(() => draw(this.page));
    this.unmark();
  }

  /**
   * A picture: reserves `height` below the cursor (on a new page when it does not fit there), calls `draw`
   * with the page and the top of the reserved space, and moves the cursor below it. Whatever `draw` paints,
   * its frame included, is one Figure with `alt` as its alternate text and the reserved space (the column's
   * width by `height`) as its bounding box. `draw` paints on the page itself, not through the writer.
   */
  figure(alt: string, height: number, draw: (page: PDFPage, top: number) => void): void {
    this.room(height);
    const top = this.y;
    this.mark(this.structure.add('Figure', this.parent, { alt, bbox: [MARGIN, top - height, MARGIN + WIDTH, top] }));
    this.callback(() => draw(this.page, top));
    this.unmark();
    this.y -= height;
  }

  /**
   * A form field's widgets, which `place` adds to the page it is given, as a Form element of the reading
   * order; `description` is what a screen reader says of the field (its /TU).
   */
  field(field: PDFField, description: string, place: (page: PDFPage) => void): void {
    this.unmark();
    const before = this.page.node.Annots()?.size() ?? 0;
    this.callback(() => place(this.page));
    const element = this.structure.add('Form', this.parent);
    for (const widget of this.page.node.Annots()?.asArray().slice(before) ?? []) {
      if (widget instanceof PDFRef) this.structure.annotation(this.page, element, widget);
    }
    field.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText(description));
  }

  /** Writes `build`'s blocks as one section (Sect) of the reading order. */
  section(build: () => void): void {
    const outer = this.parent;
    this.parent = this.structure.add('Sect', outer);
    try {
      build();
    } finally {
      this.unmark();
      this.parent = outer;
    }
  }

  /**
   * A table: a header row, then rows whose cells wrap within their column; a row that does not fit starts
   * a new page, where the header is repeated.
   */
  table(
    columns: { header: string; width: number }[],
    rows: { cells: string[]; colors?: (RGB | undefined)[] }[],
    size = 8.5,
  ): void {
    const line = size + 3;
    const table = this.structure.add('Table', this.parent);
    // The header row is read once: repeated atop a continuation page, it is an artifact.
    const header = (repeated: boolean) => {
      this.room(line + 6);
      const tr = repeated ? null : this.structure.add('TR', table);
      if (repeated) this.structure.beginArtifact(this.page);
      let x = MARGIN;
      for (const c of columns) {
        // A column without a heading has its header cell all the same: rows line up with the header row.
        const th = tr && this.structure.add('TH', tr, { scope: 'Column' });
        if (c.header) {
          if (th) this.mark(th);
          this.page.drawText(this.printable(c.header, this.fonts.bold), {
            x,
            y: this.y - size,
            size,
            font: this.fonts.bold,
            color: MUTED,
          });
        }
        x += c.width;
      }
      if (repeated) this.structure.end(this.page);
      else this.unmark();
      this.y -= line + 2;
      this.rule(4);
    };
    header(false);
    for (const row of rows) {
      const wrapped = row.cells.map((cell, i) => this.wrap(cell, this.fonts.regular, size, columns[i]!.width - 6));
      const height = Math.max(1, ...wrapped.map((w) => w.length)) * line + 3;
      if (this.room(height)) header(true);
      const tr = this.structure.add('TR', table);
      let x = MARGIN;
      wrapped.forEach((cellLines, i) => {
        const td = this.structure.add('TD', tr);
        cellLines.forEach((l, k) => {
          this.mark(td);
          this.page.drawText(l, {
            x,
            y: this.y - size - k * line,
            size,
            font: this.fonts.regular,
            color: row.colors?.[i] ?? INK,
          });
        });
        x += columns[i]!.width;
      });
      this.unmark();
      this.y -= height;
    }
    this.y -= 6;
  }

  /** "Page x of y" and the given text at the foot of every page. */
  footers(left: string): void {
    const size = 7.5;
    const total = this.pages.length;
    this.unmark();
    this.pages.forEach((page, i) => {
      const right = `Page ${i + 1} of ${total}`;
      this.structure.beginArtifact(page, 'Pagination');
      page.drawLine({
        start: { x: MARGIN, y: MARGIN + 10 },
        end: { x: MARGIN + WIDTH, y: MARGIN + 10 },
        thickness: 0.5,
        color: RULE,
      });
      page.drawText(this.printable(left), { x: MARGIN, y: MARGIN, size, font: this.fonts.regular, color: MUTED });
      const w = this.measure(right, this.fonts.regular, size);
      page.drawText(right, { x: MARGIN + WIDTH - w, y: MARGIN, size, font: this.fonts.regular, color: MUTED });
      this.structure.end(page);
    });
  }

  /** Writes the structure tree: call once, when every page is drawn. */
  finish(): void {
    this.unmark();
    this.structure.finish();
  }

  /** Continues the marked content of `element` on this page, or opens it. */
  private mark(element: StructElement): void {
    this.notInCallback();
    if (this.marking?.element === element && this.marking.page === this.page) return;
    this.unmark();
    this.structure.begin(this.page, element);
    this.marking = { page: this.page, element };
  }

  private unmark(): void {
    this.notInCallback();
    if (!this.marking) return;
    this.structure.end(this.marking.page);
    this.marking = null;
  }

  /** A callback's drawing is tagged as a whole: the writer's own tagging inside it would split it wrongly. */
  private notInCallback(): void {
    if (this.inCallback)
      throw new Error('a drawing callback paints on the page it is given, not through the page writer');
  }

  private callback(draw: () => void): void {
    this.inCallback = true;
    try {
      draw();
    } finally {
      this.inCallback = false;
    }
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
