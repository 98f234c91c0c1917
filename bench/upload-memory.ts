// `npm run bench:upload`: how much the API's (and the worker's) resident memory grows while a 200 MiB
// document is uploaded as multipart and ingested. Target: the API grows by at most 64 MiB. Starts its
// own stack in a throw-away directory (like npm test) and stops it afterwards.
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { memoryMiB, withThrowawayStack } from '../scripts/stack/throwaway.js';

const MiB = 1024 * 1024;
const SIZE_MIB = Number(process.argv[2] ?? 200);

async function main() {
  await withThrowawayStack({ serviceEnv: { MAX_FILE_BYTES: String(512 * MiB), MAX_REVIEW_BYTES: String(1024 * MiB) } }, async ({ api, key, dir, pids }) => {
    const file = join(dir, 'big.pdf');
    const handle = await open(file, 'w');
    await handle.write(Buffer.from('%PDF-1.7\n'));
    const block = randomBytes(MiB);
    for (let i = 0; i < SIZE_MIB; i++) await handle.write(block);
    await handle.close();

    // Warm the API's code paths with a small upload, so the baseline includes what any upload loads.
    const warm = new FormData();
    warm.append('documents', new Blob([Buffer.from('%PDF-1.7\nwarm-up\n')]), 'warm.pdf');
    await fetch(`${api}/reviews`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: warm });
    await new Promise((r) => setTimeout(r, 1000));
    const base = { api: await memoryMiB(pids.api), worker: await memoryMiB(pids.worker) };
    const peak = { ...base };
    const sampler = setInterval(async () => {
      peak.api = Math.max(peak.api, await memoryMiB(pids.api).catch(() => 0));
      peak.worker = Math.max(peak.worker, await memoryMiB(pids.worker).catch(() => 0));
    }, 25);

    const body = new FormData();
    body.append('documents', await openAsBlob(file), 'big.pdf');
    const t0 = Date.now();
    const res = await fetch(`${api}/reviews`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body });
    const text = await res.text();
    const seconds = (Date.now() - t0) / 1000;
    clearInterval(sampler);
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${text}`);
    const review = JSON.parse(text) as { document_count: number };

    const grew = { api: peak.api - base.api, worker: peak.worker - base.worker };
    console.log(`upload ${SIZE_MIB} MiB: 201 in ${seconds.toFixed(1)} s (${(SIZE_MIB / seconds).toFixed(0)} MiB/s), document_count ${review.document_count}`);
    console.log(`api    RSS ${base.api.toFixed(0)} MiB → peak ${peak.api.toFixed(0)} MiB: +${grew.api.toFixed(0)} MiB (target ≤ 64)`);
    console.log(`worker RSS ${base.worker.toFixed(0)} MiB → peak ${peak.worker.toFixed(0)} MiB: +${grew.worker.toFixed(0)} MiB`);
    process.exitCode = grew.api <= 64 ? 0 : 1;
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
