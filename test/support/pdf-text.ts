// The text on each page of a PDF as drawn, line by line (pdf.js's text content grouped by baseline), for
// tests that assert what a rendered document says. Deliberately not the QC reader: a report's small grey
// footer must be asserted as drawn, not as the reader's ink check would keep it.
import { openPdf } from '../../src/qc/reading/pdfjs.js';

interface Run {
  str: string;
  transform: number[];
}

/** Each page's text: lines top to bottom joined with newlines, runs left to right with single spaces. */
export async function pagesText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await openPdf(bytes);
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      const lines = new Map<number, Run[]>();
      for (const item of content.items as Run[]) {
        if (!item.str?.trim()) continue;
        const y = Math.round(item.transform[5]!);
        lines.set(y, [...(lines.get(y) ?? []), item]);
      }
      pages.push(
        [...lines.entries()]
          .sort(([a], [b]) => b - a)
          .map(([, runs]) =>
            runs
              .sort((a, b) => a.transform[4]! - b.transform[4]!)
              .map((r) => r.str.trim())
              .join(' '),
          )
          .join('\n'),
      );
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

interface StructNode {
  role?: string;
  alt?: string;
  children?: StructNode[];
}

/** The alternate text of every Figure of the tagged structure, page by page in reading order. */
export async function figureAlts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await openPdf(bytes);
  const alts: string[] = [];
  const walk = (node: StructNode | null) => {
    if (!node) return;
    if (node.role === 'Figure') alts.push(node.alt ?? '');
    for (const child of node.children ?? []) walk(child);
  };
  try {
    for (let n = 1; n <= pdf.numPages; n++) walk((await (await pdf.getPage(n)).getStructTree()) as StructNode | null);
    return alts;
  } finally {
    await pdf.destroy();
  }
}
