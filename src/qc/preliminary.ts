// The preliminary finding set: the documentation rules that need only each document's class (DOC-001,
// DOC-002, DOC-009, RULES.md). It is what the review workflow releases until the full mortgage_v1 rule
// catalog (the QC engine) replaces it; every finding it makes is one the catalog makes too.
import { CLASS_NAMES, PRIMARY_CLASSES, type DocumentClass } from './classify.js';
import type { Finding } from './finding.js';

export interface ClassifiedDocument {
  filename: string;
  /** null when the document could not be read at all (see `unreadable`). */
  documentClass: DocumentClass | null;
  /** Why the document could not be read; images are not read until OCR joins. */
  unreadable: string | null;
}

/** The core documents every package needs; one DOC-001 per missing type. */
const CORE: DocumentClass[] = ['note', 'security_instrument', 'closing_disclosure', 'loan_estimate', 'urla'];

export function hasPrimaryDocument(docs: readonly ClassifiedDocument[]): boolean {
  return docs.some((d) => d.documentClass !== null && PRIMARY_CLASSES.has(d.documentClass));
}

export function preliminaryFindings(docs: readonly ClassifiedDocument[]): Finding[] {
  const present = new Set(docs.map((d) => d.documentClass));
  const findings: Finding[] = [];
  for (const cls of CORE) {
    if (present.has(cls)) continue;
    findings.push({
      key: `DOC-001:${cls}`,
      code: 'DOC-001',
      severity: 'critical',
      category: 'documentation',
      title: 'Core document missing',
      summary: `No ${CLASS_NAMES[cls]} was found among the ${docs.length} document(s) of the package.`,
    });
  }
  if (!present.has('appraisal')) {
    findings.push({
      key: 'DOC-002',
      code: 'DOC-002',
      severity: 'high',
      category: 'documentation',
      title: 'Appraisal missing',
      summary: `No appraisal (1004/URAR) was found among the ${docs.length} document(s) of the package.`,
    });
  }
  const unclassified = docs.filter((d) => d.documentClass === 'other' || d.documentClass === null).map((d) => d.filename);
  if (unclassified.length > 0) {
    findings.push({
      key: 'DOC-009',
      code: 'DOC-009',
      severity: 'low',
      category: 'documentation',
      title: 'Document not classified',
      summary: `${unclassified.length} document(s) could not be classified: ${listNames(unclassified)}.`,
    });
  }
  return findings;
}

function listNames(names: string[]): string {
  const shown = names.slice(0, 10).join(', ');
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown;
}
