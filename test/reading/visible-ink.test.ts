// Which words of a text layer are seen is read from where the page puts ink. Worked out from the page's
// drawing operators (reading/operator-ink.ts) it must see every word a render of the page sees, on real
// forms; it also sees the thin grey digits a render at 108 dpi loses ("year 1 for"), as the forms' own
// plain text (ground_truth/) has them.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { operatorInk } from '../../src/qc/reading/operator-ink.js';
import { openPdfForRendering } from '../../src/qc/reading/render.js';
import { renderedInk, visibleItems } from '../../src/qc/reading/visible-text.js';
import type { TextItem } from '../../src/qc/reading/page.js';

const corpus = new URL('../corpus/', import.meta.url);
const files = [
  ...readdirSync(new URL('cfpb/', corpus))
    .filter((f) => f.endsWith('.pdf'))
    .map((f) => new URL(`cfpb/${f}`, corpus)),
  ...readdirSync(new URL('public-docs/clean/', corpus))
    .filter((f) => f.endsWith('.pdf'))
    .map((f) => new URL(`public-docs/clean/${f}`, corpus)),
  ...readdirSync(new URL('public-docs/bundles/', corpus))
    .filter((f) => f.endsWith('.pdf'))
    .map((f) => new URL(`public-docs/bundles/${f}`, corpus)),
];

interface PageComparison {
  file: string;
  page: number;
  modelled: boolean;
  byRender: string[];
  byOperators: string[];
}

async function compare(url: URL): Promise<PageComparison[]> {
  const pdf = await openPdfForRendering(new Uint8Array(readFileSync(url)));
  const out: PageComparison[] = [];
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const angled = new Set<TextItem>();
      const items: TextItem[] = [];
      for (const raw of (await page.getTextContent()).items) {
        if (!('str' in raw) || raw.str.trim() === '') continue;
        const item = { text: raw.str, x: raw.transform[4], y: raw.transform[5], width: raw.width, height: raw.height };
        if (raw.transform[1] !== 0 || raw.transform[2] !== 0) angled.add(item);
        items.push(item);
      }
      if (items.length === 0) continue;
      const ink = await operatorInk(page, page.getViewport({ scale: 1.5 }));
      const byRender = (await visibleItems(pdf, n, items, angled, renderedInk)).map((i) => i.text);
      const byOperators = ink
        ? (await visibleItems(pdf, n, items, angled, async () => ink)).map((i) => i.text)
        : byRender;
      out.push({ file: url.pathname.split('/').at(-1)!, page: n, modelled: ink !== null, byRender, byOperators });
    }
  } finally {
    await pdf.destroy();
  }
  return out;
}

test(
  'on every text page of the corpus, the operators see every word a render sees; most pages ' + 'need no render',
  async (t) => {
    const pages = (await Promise.all(files.map(compare))).flat();
    const lost = pages.flatMap((p) => {
      const seen = p.byOperators.join('\n');
      return p.byRender.filter((text) => !seen.includes(text.trim())).map((text) => `${p.file} p${p.page}: "${text}"`);
    });
    t.deepEqual(lost, []);
    const modelled = pages.filter((p) => p.modelled).length;
    t.log(`${modelled} of ${pages.length} text pages read from their operators; the rest rendered`);
    t.true(modelled / pages.length >= 0.9, `${modelled} of ${pages.length}`);
  },
);

test('thin grey digits a render loses are seen, as the forms print them', async (t) => {
  const text = (name: string, n: number) =>
    compare(new URL(`public-docs/clean/${name}`, corpus)).then((pages) => pages.find((p) => p.page === n)!);
  const blankCd = await text('cd_blank_h25a.pdf', 7);
  t.true(blankCd.modelled);
  t.true(blankCd.byOperators.some((s) => s.includes('Estimated total amount over year 1 for')));
  t.false(
    blankCd.byRender.some((s) => s.includes('over year 1 for')),
    'the render this replaces lost the 1',
  );
  const w2 = await text('irs_w2.pdf', 9);
  t.true(w2.byOperators.some((s) => s.includes('Tier 1 tax')));
  const groundTruth = readFileSync(new URL('public-docs/ground_truth/irs_w2.txt', corpus), 'utf8');
  t.true(groundTruth.includes('Tier 1 tax'));
});
