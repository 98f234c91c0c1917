// Reads a PDF's text layer page by page with positions (pdf.js through unpdf), and its AcroForm field
// values (a URLA often carries its data there). A PDF that cannot be parsed is reported, never thrown:
// an unreadable document is a finding, not a crash.
import { pageTextOf } from './layout.js';
import { openPdf, type PdfDocument } from './pdfjs.js';
import type { PageText, TextItem } from './page.js';

export interface FormField {
  name: string;
  value: string | boolean;
  /** 1-based page of the field's widget, when pdf.js knows it. */
  page: number | null;
}

export type PdfReading =
  | { readable: true; pages: PageText[]; formFields: FormField[] }
  | { readable: false; reason: string };

interface PdfJsTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
  try {
    const pdf = await openPdf(bytes);
    try {
      const pages: PageText[] = [];
      for (let n = 1; n <= pdf.numPages; n++) {
        const items = await pageItems(pdf, n);
        pages.push({ number: n, items, text: pageTextOf(items), source: 'text_layer', confidence: null });
      }
      // Form values are a bonus to the text: a broken AcroForm leaves the pages readable.
      const formFields = await formFieldsOf(pdf).catch(() => []);
      return { readable: true, pages, formFields };
    } finally {
      await pdf.destroy();
    }
  } catch (err) {
    return { readable: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * One page's text runs. A page whose content pdf.js cannot interpret yields no text rather than sinking
 * the whole file: it then goes to OCR like a scanned page, and is illegible (DOC-006) if that fails too.
 */
const MAX_PAGE_ITEMS = 5_000;

async function pageItems(pdf: PdfDocument, n: number): Promise<TextItem[]> {
  try {
    const page = await pdf.getPage(n);
    try {
      const content = await page.getTextContent();
      const items: TextItem[] = [];
      for (const raw of content.items) {
        if (!('str' in raw)) continue;
        const it = raw as PdfJsTextItem;
        if (it.str.trim() === '') continue;
        items.push({ text: it.str, x: it.transform[4] ?? 0, y: it.transform[5] ?? 0, width: it.width, height: it.height });
        // A form page holds a few hundred runs; past this the page is built to exhaust the layout's
        // pairings (label × value lookups), and what a reader could make of it is in the first runs anyway.
        if (items.length >= MAX_PAGE_ITEMS) break;
      }
      return items;
    } finally {
      page.cleanup();
    }
  } catch {
    return [];
  }
}

async function formFieldsOf(pdf: PdfDocument): Promise<FormField[]> {
  const objects = (await pdf.getFieldObjects()) as Record<string, { value?: unknown; page?: number; type?: string }[]> | null;
  if (!objects) return [];
  const fields: FormField[] = [];
  for (const [name, widgets] of Object.entries(objects)) {
    for (const w of widgets) {
      const value = typeof w.value === 'string' || typeof w.value === 'boolean' ? w.value : null;
      if (value === null || value === '' || value === 'Off') continue;
      fields.push({ name, value, page: typeof w.page === 'number' ? w.page + 1 : null });
      break;
    }
  }
  return fields;
}
