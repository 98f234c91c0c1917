// What the specification leaves open is settled in docs/decisions.md, in the project's words: the code
// cites an entry by its title, every title cited exists, and nothing cites a document or an issue number
// the repository does not hold.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DIRS = ['api', 'src', 'workflows', 'activities', 'worker', 'scripts', 'test', 'bench', 'docs'];
const TEXT = /\.(ts|mjs|sql|md|yml)$/;

function files(): string[] {
  const found: string[] = [join(root, 'README.md'), join(root, 'docker-compose.yml'), join(root, 'Dockerfile')];
  for (const dir of DIRS) {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
      const path = join(entry.parentPath, entry.name);
      // The corpus's own READMEs describe public documents, not this code.
      if (entry.isFile() && TEXT.test(entry.name) && !relative(root, path).startsWith('test/corpus/')) found.push(path);
    }
  }
  return found;
}

const titles = new Set(
  [...readFileSync(join(root, 'docs/decisions.md'), 'utf8').matchAll(/^### (.+)$/gm)].map((m) => m[1]!),
);
// This file names the patterns it forbids.
const self = fileURLToPath(import.meta.url);

test('no file cites a numbered decision or an issue number', (t) => {
  const cited = files()
    .filter((f) => f !== self)
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /DECISIONS \d|\bissues? \d+/i.test(line) ? [`${relative(root, f)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
  t.deepEqual(cited, []);
});

test('every decision cited by title is an entry of docs/decisions.md', (t) => {
  t.true(titles.size >= 20, `${titles.size} entries`);
  const unknown: string[] = [];
  let citations = 0;
  for (const f of files()) {
    for (const m of readFileSync(f, 'utf8').matchAll(/decisions\.md, ((?:"[^"]+"(?:, | to )?)+)/g)) {
      for (const title of m[1]!.matchAll(/"([^"]+)"/g)) {
        citations += 1;
        if (!titles.has(title[1]!)) unknown.push(`${relative(root, f)}: "${title[1]}"`);
      }
    }
  }
  t.true(citations >= 20, `${citations} citations`);
  t.deepEqual(unknown, []);
});
