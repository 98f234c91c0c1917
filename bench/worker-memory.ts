// `npm run bench:worker-memory`: the worker's peak resident memory on single inputs at the service's
// limits, each uploaded through the API to a stack of its own and followed until its review settles.
// Target: at most 1.5 GiB on any of them. Inputs, made here from test/corpus's CFPB forms:
//   - a scanned package of 99 MiB: one image-only PDF of 300-dpi JPEG pages (every page OCRed);
//   - 5,000 text pages in one PDF (the most read from one file);
//   - one 59-megapixel photo of a page (just under the 60-megapixel decoding limit);
//   - a zip of 300 documents (the most a review holds), read four at a time;
//   - a PDF whose content stream inflates to 512 MiB (stopped by the memory watch).
// Memory is sampled every 25 ms (VmRSS) while each input is processed; the process's VmHWM is printed
// at the end. `npm run bench:worker-memory -- scan` runs the inputs whose names contain "scan".
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { degradedPages, DEGRADATIONS, imagePdf } from '../test/support/degrade.js';
import { hostilePdfs } from '../test/support/hostile-files.js';
import { zip } from '../test/support/fixtures.js';
import { renderPdfPage } from '../src/qc/reading/render.js';
import { memoryMiB, withThrowawayStack } from '../scripts/stack/throwaway.js';
import { recordOnceItHolds, type LogRecord } from '../test/support/logs.js';

const MiB = 1024 * 1024;
const BUDGET_MIB = 1536;
const corpus = new URL('../test/corpus/cfpb/', import.meta.url);

async function samples(): Promise<Uint8Array[]> {
  const names = (await readdir(corpus)).filter((f) => f.endsWith('.pdf')).sort();
  return Promise.all(names.map(async (n) => new Uint8Array(await readFile(new URL(n, corpus)))));
}

interface Input {
  name: string;
  filename: string;
  make: () => Promise<Uint8Array>;
}

const inputs: Input[] = [
  {
    name: 'scanned PDF, 99 MiB (300 dpi JPEG pages)',
    filename: 'scan-99mib.pdf',
    make: async () => {
      const forms = await samples();
      const pages: Buffer[] = [];
      let bytes = 0;
      for (const form of forms) pages.push(...(await degradedPages(form, DEGRADATIONS[0]!)));
      const chosen: Buffer[] = [];
      // The forms' pages over and over, until the file is as large as an upload may be.
      for (let i = 0; bytes < 99 * MiB - 2 * MiB; i++) {
        chosen.push(pages[i % pages.length]!);
        bytes += pages[i % pages.length]!.length;
      }
      return imagePdf(chosen);
    },
  },
  {
    name: '5,000 text pages in one PDF',
    filename: 'text-5000.pdf',
    make: async () => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      for (let i = 1; i <= 5000; i++) {
        const page = doc.addPage([612, 792]);
        page.drawText(i === 1 ? 'Closing Disclosure' : `Addendum page ${i}`, { x: 72, y: 720, size: 14, font });
        for (let line = 0; line < 12; line++)
          page.drawText(`Line ${line}: the borrower agrees to the terms stated in this document.`, {
            x: 72,
            y: 680 - line * 15,
            size: 9,
            font,
          });
      }
      return doc.save();
    },
  },
  {
    name: 'a 59-megapixel photo of a page (JPEG)',
    filename: 'photo-59mp.jpg',
    make: async () => {
      const [first] = await samples();
      // Page 2: a CFPB sample's first page is its cover note, which is no form, and a review of it alone
      // would settle awaiting documents instead of completing.
      const png = await renderPdfPage(first!, 2, 300);
      return sharp(png)
        .flatten({ background: '#ffffff' })
        .resize(6700, 8800, { fit: 'fill' })
        .jpeg({ quality: 80 })
        .toBuffer();
    },
  },
  {
    name: 'a zip of 300 documents',
    filename: 'package-300.zip',
    make: async () => {
      const forms = await samples();
      // Each copy made distinct (a comment after its end), or identical documents would count once.
      return zip(
        Array.from({ length: 300 }, (_, i) => ({
          name: `loan/doc-${i}.pdf`,
          data: Buffer.concat([forms[i % forms.length]!, Buffer.from(`\n% copy ${i}\n`)]),
        })),
      );
    },
  },
  {
    name: 'a content stream inflating to 512 MiB',
    filename: 'flate-bomb.pdf',
    make: async () => hostilePdfs.flateBomb(512),
  },
];

async function main() {
  const only = process.argv[2];
  const chosen = inputs.filter((i) => !only || i.name.includes(only) || i.filename.includes(only));
  const rows: string[] = [];
  let worst = 0;
  for (const input of chosen) {
    const bytes = await input.make();
    // A stack per input: the worker's peak is this input's alone.
    await withThrowawayStack(
      { serviceEnv: { MAX_CONCURRENT_ANALYSES: '4' } },
      async ({ stack, api, key, dir, pids }) => {
        const file = join(dir, input.filename);
        await writeFile(file, bytes);
        // At rest means warm: the worker polls before its readers have started (worker/main.ts).
        const warm = (r: LogRecord) => r.message === 'pdf.js threads and OCR workers ready';
        if (!(await recordOnceItHolds(stack.analysis.spec.logFile, warm, 120_000)))
          throw new Error("the analysis worker's readers did not start");
        const base = await memoryMiB(pids.analysis);
        let peak = base;
        const sampler = setInterval(() => {
          void memoryMiB(pids.analysis).then(
            (m) => (peak = Math.max(peak, m)),
            () => {},
          );
        }, 25);
        const started = Date.now();
        try {
          const body = new FormData();
          body.append('documents', await openAsBlob(file), input.filename);
          const res = await fetch(`${api}/reviews`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}` },
            body,
          });
          const created = (await res.json()) as { review_id?: string; error?: { code: string } };
          if (res.status !== 201 || !created.review_id)
            throw new Error(`${input.filename}: ${res.status} ${JSON.stringify(created)}`);
          let status = 'processing';
          while (!['completed', 'awaiting_documents', 'failed'].includes(status)) {
            await new Promise((r) => setTimeout(r, 1000));
            const r = await fetch(`${api}/reviews/${created.review_id}`, {
              headers: { authorization: `Bearer ${key}` },
            });
            if (r.status === 200) status = ((await r.json()) as { status: string }).status;
          }
          const hwm = await memoryMiB(pids.analysis, 'VmHWM');
          const seconds = (Date.now() - started) / 1000;
          peak = Math.max(peak, hwm);
          worst = Math.max(worst, peak);
          const row =
            `| ${input.name} | ${(bytes.length / MiB).toFixed(1)} MiB | ${status} in ` +
            `${seconds.toFixed(0)} s | ${base.toFixed(0)} MiB | ${peak.toFixed(0)} MiB |`;
          console.log(row);
          rows.push(row);
        } finally {
          clearInterval(sampler);
        }
      },
    );
  }
  console.log(
    `\n| input | size | review | worker at rest | worker peak |\n|---|---:|---|---:|---:|\n${rows.join('\n')}`,
  );
  console.log(`\nworst peak ${worst.toFixed(0)} MiB (budget ${BUDGET_MIB} MiB)`);
  process.exitCode = worst <= BUDGET_MIB ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
