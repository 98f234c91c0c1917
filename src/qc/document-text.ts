// Reads the text layer of a PDF, page by page (pdf.js through unpdf). A PDF that cannot be parsed is
// reported as unreadable, never thrown: an unreadable document is a finding, not a crash.
import { extractText, getDocumentProxy } from 'unpdf';

export type PdfText = { readable: true; pages: string[] } | { readable: false; reason: string };

export async function readPdfText(bytes: Uint8Array): Promise<PdfText> {
  try {
    // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const { text } = await extractText(pdf, { mergePages: false });
      return { readable: true, pages: text };
    } finally {
      await pdf.destroy();
    }
  } catch (err) {
    return { readable: false, reason: err instanceof Error ? err.message : String(err) };
  }
}
