// Analyses a review's documents: reads each one, classifies it, and derives the findings. Bytes are read
// one document at a time from storage; `progress` is called after each (the activity heartbeats there).
import { classifyByTitle, type DocumentClass } from './classify.js';
import { readPdfText } from './document-text.js';
import type { Finding } from './finding.js';
import { hasPrimaryDocument, preliminaryFindings, type ClassifiedDocument } from './preliminary.js';

export interface DocumentToAnalyse {
  id: string;
  filename: string;
  mime: string;
  objectKey: string;
}

export interface AnalysedDocument extends ClassifiedDocument {
  id: string;
}

export interface Analysis {
  documents: AnalysedDocument[];
  findings: Finding[];
  primaryPresent: boolean;
  /** True when not one document could be read: the pipeline cannot complete (the review fails). */
  nothingReadable: boolean;
}

export async function analyseDocuments(
  docs: readonly DocumentToAnalyse[],
  read: (objectKey: string) => Promise<Buffer>,
  progress: (done: number) => void = () => {},
): Promise<Analysis> {
  const documents: AnalysedDocument[] = [];
  for (const doc of docs) {
    documents.push({ id: doc.id, filename: doc.filename, ...(await classify(doc, read)) });
    progress(documents.length);
  }
  return {
    documents,
    findings: preliminaryFindings(documents),
    primaryPresent: hasPrimaryDocument(documents),
    nothingReadable: documents.length > 0 && documents.every((d) => d.unreadable !== null),
  };
}

async function classify(
  doc: DocumentToAnalyse,
  read: (objectKey: string) => Promise<Buffer>,
): Promise<{ documentClass: DocumentClass | null; unreadable: string | null }> {
  // Images carry no text layer; until OCR reads them they are documents of no known class.
  if (doc.mime !== 'application/pdf') return { documentClass: 'other', unreadable: null };
  const text = await readPdfText(await read(doc.objectKey));
  if (!text.readable) return { documentClass: null, unreadable: text.reason };
  return { documentClass: classifyByTitle(text.pages), unreadable: null };
}
