// The API parses no caller's file: crafted uploads that cost a careless parser seconds of CPU and
// hundreds of MiB (test/support/crafted-uploads.ts) go through the API as bytes streamed to the store, and
// the worker's scan judges each no working document of ours within its budget. What shows that the API
// left their content alone is its own CPU time, read from /proc: the crafted uploads cost it what uploads
// of the same sizes and of random content cost it in the same run, not the seconds a parse of them takes.
// CPU time, unlike the event loop's wall-clock delay, does not grow with the machine's load; the delay
// (prom-client's monitorEventLoopDelay in the API process, against an idle loop's) is logged here and
// held to its target by `npm run bench:hostile-uploads`, on a machine given to it. Meanwhile the API's
// memory stays flat and another organization's reads are answered.
import test from 'ava';
import { freePort } from '../../scripts/stack/ports.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { call, createBody, form } from '../support/http.js';
import {
  craftedUploads,
  sameSizeTwins,
  uploadRound,
  type Upload,
  type UploadRound,
} from '../support/crafted-uploads.js';
import { pdf } from '../support/fixtures.js';
import { waitForReview } from '../support/reviews.js';
import { TestServices } from '../support/services.js';
import { closeShared, newOrganization } from '../support/stack.js';

const MiB = 1024 * 1024;
const services = new TestServices();
test.after.always(async () => {
  await services.stopAll();
  await closeShared();
});

/**
 * CPU time the crafted uploads may cost the API beyond their twins: the bystander's reads (one every
 * 100 ms, as many more as the crafted uploads take longer to answer) and noise. Parsing them costs the
 * careless parser of the issue seconds each (3.9 s the empty blocks, 27 s the zip, 10 s the XRef bomb).
 */
const CPU_ALLOWANCE_S = 0.5;

test(
  'crafted uploads are streamed, never parsed, by the API: they cost its CPU what same-size uploads of ' +
    'random bytes cost it, its RSS grows within 64 MiB while they are handled, another organization ' +
    'reads meanwhile, and the worker judges each no working document within its scan budget',
  async (t) => {
    const opsPort = await freePort();
    const api = await services.api({ METRICS: 'on', OPS_HOST: '127.0.0.1', OPS_PORT: String(opsPort) });
    const metrics = `http://127.0.0.1:${opsPort}/metrics`;
    const pid = api.child.process.pid!;
    const attacker = await newOrganization();
    // Its reads every 100 ms for as long as the uploads take: more than the default 60 a minute.
    const bystander = await newOrganization({ rateLimitPerMinute: 100_000 });

    // Made before anything is measured: building them is this process's work, not the API's.
    const crafted = await craftedUploads();
    const twins = await sameSizeTwins(crafted);
    t.log(`sizes: ${crafted.map((u) => (u.data.length / MiB).toFixed(1)).join(', ')} MiB`);

    // The bystander's review, and one warm-up create and read of each organization.
    const mine = await call(api.url, 'POST', '/reviews', { key: bystander.liveKey, json: createBody() });
    t.is(mine.status, 201, mine.text);
    const mineId = ReviewSchema.parse(mine.body).review_id;
    const warm = await call(api.url, 'POST', '/reviews', {
      key: attacker.liveKey,
      form: form([{ name: 'warm.pdf', data: await pdf('Closing Disclosure') }]),
    });
    t.is(warm.status, 201, warm.text);

    const phase = (uploads: Upload[]) =>
      uploadRound({
        pid,
        metricsUrl: metrics,
        uploads,
        create: (file) => call(api.url, 'POST', '/reviews', { key: attacker.liveKey, form: form([file]) }),
        read: async () => (await call(api.url, 'GET', `/reviews/${mineId}`, { key: bystander.liveKey })).status,
      });
    const describe = (label: string, p: UploadRound) =>
      `${label}: ${p.answers.map((a) => `${a.name} ${a.status} after ${a.seconds.toFixed(1)} s`).join('; ')}; ` +
      `API CPU ${p.cpu.toFixed(2)} s; loop p99 ${p.loop.p99.toFixed(1)} ms (an idle process's ` +
      `${p.idle.toFixed(1)} ms), max ${p.loop.max.toFixed(1)} ms; RSS ${p.rss.before.toFixed(0)} → ` +
      `${p.rss.peak.toFixed(0)} MiB; ${p.reads.length} reads, slowest ` +
      `${Math.max(...p.reads.map((r) => r.ms)).toFixed(0)} ms`;

    const plain = await phase(twins);
    t.log(describe('same-size twins', plain));
    const hostile = await phase(crafted);
    t.log(describe('crafted', hostile));

    for (const p of [plain, hostile]) {
      // Each is taken as an ordinary document: the scan finds it past its budget, so no parse follows.
      for (const a of p.answers) t.is(a.status, 201, `${a.name}: ${a.text}`);
      const refused = p.reads.filter((r) => r.status !== 200).map((r) => r.status);
      t.true(p.reads.length > 0 && refused.length === 0, `every read answered 200, not ${refused.join(', ')}`);
    }
    t.true(
      hostile.cpu <= plain.cpu + CPU_ALLOWANCE_S,
      `the crafted uploads cost the API ${hostile.cpu.toFixed(2)} s of CPU, their twins ${plain.cpu.toFixed(2)} s`,
    );
    t.true(
      hostile.rss.peak - hostile.rss.before <= 64,
      `RSS grew ${(hostile.rss.peak - hostile.rss.before).toFixed(0)} MiB`,
    );
    // Each crafted create settles like any unreadable upload, never hangs the worker.
    for (const a of hostile.answers) {
      const id = ReviewSchema.parse(JSON.parse(a.text)).review_id;
      const settled = await waitForReview(
        attacker.liveKey,
        id,
        (r) => ['failed', 'awaiting_documents', 'completed'].includes(r.status),
        300_000,
        api.url,
      );
      t.true(['failed', 'awaiting_documents', 'completed'].includes(settled.status), `${a.name}: ${settled.status}`);
    }
  },
);
