// Writes the rule catalog of src/qc/catalog.ts into the README between its markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { CATALOG_MARKERS, catalogMarkdown } from '../src/qc/catalog.js';

const path = new URL('../README.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const start = readme.indexOf(CATALOG_MARKERS.start);
const end = readme.indexOf(CATALOG_MARKERS.end);
if (start < 0 || end < start) throw new Error('README.md lacks the rule-catalog markers');
writeFileSync(path, `${readme.slice(0, start + CATALOG_MARKERS.start.length)}\n${catalogMarkdown()}\n${readme.slice(end)}`);
console.log('README.md rule catalog updated');
