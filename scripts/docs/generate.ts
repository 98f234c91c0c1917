// `npm run docs:generate`: writes the generated sections of docs/ (scripts/docs/generated.ts).
import { writeFileSync } from 'node:fs';
import { documentUrl, GENERATED_SECTIONS, regenerate } from './generated.js';

for (const section of GENERATED_SECTIONS) {
  const { current, generated } = regenerate(section);
  if (current === generated) continue;
  writeFileSync(documentUrl(section), generated);
  console.log(`${section.file}: ${section.content.name} written`);
}
