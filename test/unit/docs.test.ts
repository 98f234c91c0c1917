// The documentation's generated parts are those the code generates today: the error table of docs/api.md
// from the error catalog, the rule table of docs/rules.md from the QC catalog, api.md's JSON examples from
// the OpenAPI document's (npm run docs:generate).
import test from 'ava';
import { GENERATED_SECTIONS, regenerate } from '../../scripts/docs/generated.js';

for (const section of GENERATED_SECTIONS) {
  test(`${section.file}: its ${section.what} is current (npm run docs:generate)`, (t) => {
    const { current, generated } = regenerate(section);
    t.is(current, generated);
  });
}
