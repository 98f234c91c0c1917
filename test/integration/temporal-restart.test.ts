// The Temporal server killed with -9 while a review is being analysed, and restarted by the supervisor as
// npm start's is: nothing accepted is lost. The review under way completes exactly once (one release),
// and the service takes and completes new reviews once the server is back. A stack of its own: the
// suite's Temporal serves every other test file.
import test from 'ava';
import { createSql } from '../../src/db/client.js';
import { reviewTransitions } from '../../src/db/reviews.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { withThrowawayStack } from '../../scripts/stack/throwaway.js';
import { RESTART } from '../../scripts/stack/supervisor.js';
import { call, form, whileUnavailable } from '../support/http.js';
import { longPdf, pdf } from '../support/fixtures.js';
import { onThisMachine } from '../support/machine-load.js';

async function settled(api: string, key: string, reviewId: string, timeoutMs: number): Promise<string> {
  // The wait is stretched by the machine's load as it is checked (machine-load.ts).
  for (const started = Date.now(); ; ) {
    const res = await call(api, 'GET', `/reviews/${reviewId}`, { key }).catch(() => undefined);
    const status = res?.status === 200 ? ReviewSchema.parse(res.body).status : undefined;
    if (status === 'completed' || status === 'failed') return status;
    if (Date.now() > started + onThisMachine(timeoutMs))
      throw new Error(`review ${reviewId} did not settle; last ${status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

test(
  'Temporal killed with -9 mid-analysis and restarted: the review completes exactly once, and new ' +
    'reviews are taken after',
  async (t) => {
    t.timeout(10 * 60_000);
    // Its own rate limit out of reach: the test polls and retries through the outage.
    await withThrowawayStack(
      { restart: RESTART, serviceEnv: { RATE_LIMIT_PER_MINUTE: '100000' }, log: () => {} },
      async ({ stack, api, key }) => {
        const restarts: string[] = [];
        stack.supervisor.onRestart = (child) => restarts.push(child.spec.name);
        const big = await longPdf('Closing Disclosure', 400);
        const created = await call(api, 'POST', '/reviews', { key, form: form([{ name: 'cd.pdf', data: big }]) });
        t.is(created.status, 201, created.text);
        const { review_id } = ReviewSchema.parse(created.body);

        const temporal = stack.supervisor.child('temporal')!;
        const killedPid = temporal.process.pid!;
        process.kill(-killedPid, 'SIGKILL');
        await temporal.exited;
        for (const until = Date.now() + 30_000; temporal.process.pid === killedPid || !temporal.running(); ) {
          if (Date.now() > until) return t.fail('Temporal was not restarted');
          await new Promise((r) => setTimeout(r, 200));
        }
        t.deepEqual(restarts, ['temporal']);

        const killedAt = Date.now();
        t.is(await settled(api, key, review_id, 240_000), 'completed');
        t.log(`the review completed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
        const sql = createSql(stack.config, { max: 1 });
        try {
          const states = (await reviewTransitions(sql, review_id)).map((s) => s.internalState);
          t.is(states.filter((s) => s === 'released').length, 1, states.join(' → '));
        } finally {
          await sql.end();
        }

        // Creates may answer 503 until the worker and API have their connections back; then one goes through.
        const document = await pdf('Closing Disclosure');
        const next = await whileUnavailable(
          () => call(api, 'POST', '/reviews', { key, form: form([{ name: 'cd.pdf', data: document }]) }),
          60_000,
        );
        t.is(next.status, 201, next.text);
        t.is(await settled(api, key, ReviewSchema.parse(next.body).review_id, 120_000), 'completed');
      },
    );
  },
);
