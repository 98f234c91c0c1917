// Every link between the project's own documents leads somewhere: a relative link names a file of the
// repository, and a link to a heading names one the file has, spelled as GitHub spells a heading's anchor.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const root = fileURLToPath(new URL('../../', import.meta.url));
const documents = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The text outside fenced code blocks, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of prose(readFileSync(path.join(root, file), 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const anchor = anchorOf(match[1]!);
    const count = seen.get(anchor) ?? 0;
    // A repeated heading's anchor takes a suffix, as on GitHub.
    result.add(count === 0 ? anchor : `${anchor}-${count}`);
    seen.set(anchor, count + 1);
  }
  return result;
}

test('a heading anchor is spelled as GitHub spells it', (t) => {
  t.is(anchorOf('Changing the workflow, step by step'), 'changing-the-workflow-step-by-step');
  t.is(anchorOf('GET /v1/reviews/{id} (`npm run bench:reads`)'), 'get-v1reviewsid-npm-run-benchreads');
  t.is(
    anchorOf("Ordinary activities for the workflow's bookkeeping"),
    'ordinary-activities-for-the-workflows-bookkeeping',
  );
});

for (const document of documents) {
  test(`${document}: every link to a file of the project or a heading leads to one`, (t) => {
    const text = prose(readFileSync(path.join(root, document), 'utf8'));
    const broken: string[] = [];
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z]+:/i.test(target)) continue; // another site's page
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? document : path.posix.join(path.posix.dirname(document), file);
      if (!existsSync(path.join(root, resolved))) {
        broken.push(`${target}: no file ${resolved}`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${resolved}`);
    }
    t.deepEqual(broken, []);
  });
}
