// Positioned text as lines, and the lookups form extraction is built on: the value printed to the
// right of a label, or in a value column below it. Forms print label and value as separate runs, so
// reading order alone (what plain text extraction gives) cannot pair them reliably.
import type { TextItem } from './page.js';

/** Runs whose baselines are this close (points) sit on one line; form values sit up to ~1.5 pt off. */
const LINE_TOLERANCE = 2;

export interface Line {
  y: number;
  items: TextItem[];
  text: string;
}

/** The page's lines top to bottom, each line's runs left to right. */
export function linesOf(items: readonly TextItem[]): Line[] {
  const sorted = items.filter((i) => i.text.trim() !== '').sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Line[] = [];
  for (const item of sorted) {
    const line = lines.at(-1);
    if (line && Math.abs(line.y - item.y) <= LINE_TOLERANCE) line.items.push(item);
    else lines.push({ y: item.y, items: [item], text: '' });
  }
  for (const line of lines) {
    line.items.sort((a, b) => a.x - b.x);
    line.text = line.items.map((i) => i.text.trim()).join(' ');
  }
  return lines;
}

export function pageTextOf(items: readonly TextItem[]): string {
  return linesOf(items)
    .map((l) => l.text)
    .join('\n');
}

/** A page's runs with the lookups extraction needs. */
export class PageLayout {
  readonly lines: Line[];
  constructor(
    readonly number: number,
    readonly items: readonly TextItem[],
  ) {
    this.lines = linesOf(items);
  }

  get text(): string {
    return this.lines.map((l) => l.text).join('\n');
  }

  /** Runs whose whole text (trimmed) matches `label`, top to bottom. */
  labels(label: RegExp): TextItem[] {
    return this.lines.flatMap((l) => l.items.filter((i) => label.test(i.text.trim())));
  }

  label(label: RegExp): TextItem | undefined {
    return this.labels(label)[0];
  }

  /** Runs on the label's line to its right (before `maxX`), left to right. */
  rightOf(label: TextItem, o: { maxX?: number; tolerance?: number } = {}): TextItem[] {
    const tolerance = o.tolerance ?? LINE_TOLERANCE;
    return this.items
      .filter((i) => i !== label && Math.abs(i.y - label.y) <= tolerance && i.x >= label.x + label.width - 1 && i.x < (o.maxX ?? Infinity))
      .filter((i) => i.text.trim() !== '')
      .sort((a, b) => a.x - b.x);
  }

  /** The first run to the right of the label on its line whose text matches `value`. */
  valueRightOf(label: TextItem, value: RegExp, o: { maxX?: number; tolerance?: number } = {}): TextItem | undefined {
    return this.rightOf(label, o).find((i) => value.test(i.text.trim()));
  }

  /**
   * The nearest run matching `value` in a value column: right of the label's start by at least `minDx`,
   * from the label's line down to `maxDy` points below it. Loan Calculations print the figure at the
   * foot of a label that wraps over several lines.
   */
  valueBelow(label: TextItem, value: RegExp, o: { minDx: number; maxDy: number; maxX?: number }): TextItem | undefined {
    return this.items
      .filter((i) => i.x >= label.x + o.minDx && i.x < (o.maxX ?? Infinity) && i.y <= label.y + LINE_TOLERANCE && i.y >= label.y - o.maxDy)
      .filter((i) => value.test(i.text.trim()))
      .sort((a, b) => b.y - a.y || a.x - b.x)[0];
  }

  /**
   * A value of several lines printed in one column (an address under "Property"): the run at `first`
   * and the runs starting at the same x on the lines right below it, until a gap or a line that starts
   * at the label column.
   */
  columnBelow(first: TextItem, labelX: number, maxLines: number): TextItem[] {
    const out = [first];
    let y = first.y;
    for (const line of this.lines) {
      if (out.length >= maxLines) break;
      if (line.y >= y - 1) continue;
      if (y - line.y > 16) break;
      if (line.items.some((i) => Math.abs(i.x - labelX) < 3)) break;
      const next = line.items.find((i) => Math.abs(i.x - first.x) < 3);
      if (!next) break;
      out.push(next);
      y = next.y;
    }
    return out;
  }
}
