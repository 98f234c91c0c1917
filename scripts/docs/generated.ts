// The parts of docs/ written from code, between their markers: the error table from the error catalog,
// the rule table from the QC catalog. `npm run docs:generate` writes them; a unit test checks they are
// current, so documentation and behaviour change in the same commit.
import { readFileSync } from 'node:fs';
import { ERROR_TABLE_MARKERS, errorTableMarkdown } from '../../src/errors/catalog.js';
import { CATALOG_MARKERS, catalogMarkdown } from '../../src/qc/catalog.js';

interface GeneratedSection {
  /** The document, relative to the repository root. */
  file: string;
  markers: { start: string; end: string };
  content: () => string;
}

export const GENERATED_SECTIONS: readonly GeneratedSection[] = [
  { file: 'docs/api.md', markers: ERROR_TABLE_MARKERS, content: errorTableMarkdown },
  { file: 'docs/rules.md', markers: CATALOG_MARKERS, content: catalogMarkdown },
];

const root = new URL('../../', import.meta.url);

/** The document's path. */
export function documentUrl(section: GeneratedSection): URL {
  return new URL(section.file, root);
}

/** The document as it is, and as it is with its section generated afresh. */
export function regenerate(section: GeneratedSection): { current: string; generated: string } {
  const current = readFileSync(documentUrl(section), 'utf8');
  const start = current.indexOf(section.markers.start);
  const end = current.indexOf(section.markers.end);
  if (start < 0 || end < start)
    throw new Error(`${section.file} lacks the markers ${section.markers.start} … ${section.markers.end}`);
  const before = current.slice(0, start + section.markers.start.length);
  const generated = `${before}\n${section.content()}\n${current.slice(end)}`;
  return { current, generated };
}
