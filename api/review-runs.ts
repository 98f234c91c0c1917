// Starting the workflow runs of reviews the API recorded itself (a small live create): the create is
// answered once the review is in Postgres, and its run is started after, off the request's path.
//
// Creates come first: while this process is recording creates, the runs of those it has answered wait (up
// to START_DEFER_MS), so that a burst of creates is answered before the workflows, the worker and the
// analyses they set going take the machine's CPU. A review whose start did not happen (the process died,
// Temporal was unreachable) stays pending in Postgres (src/db/reviews.ts, pendingRuns), and every API
// process looks for such reviews and starts them; a start is idempotent, so two processes starting one
// review start it once.
import type { Sql } from '../src/db/client.js';
import { pendingRuns, runStarted, type ReviewRecord } from '../src/db/reviews.js';
import type { ReviewWorkflows } from './review-workflow.js';
import type { Logger } from '../src/telemetry/log.js';
import type { Context as TraceContext } from '@opentelemetry/api';

/** A pending run is looked for after this long: the process that recorded the review starts it sooner. */
export const PENDING_RUN_GRACE_SECONDS = 15;
/** How often each API process looks for pending runs. */
export const PENDING_RUN_SWEEP_MS = 5_000;
/** The longest a recorded review's run waits for the creates being recorded alongside it. */
export const START_DEFER_MS = 5_000;
/** Starts sent to Temporal at once by one process. */
const STARTS_AT_ONCE = 16;
/**
 * Runs one process keeps waiting to start, at most: past it (Temporal unreachable for long while creates
 * go on) a review's run is left to the sweep, which finds it in Postgres, rather than held in memory.
 */
const MAX_WAITING = 10_000;
const SWEEP_BATCH = 100;

interface Waiting {
  organizationId: string;
  record: ReviewRecord;
  since: number;
  /** The trace of the create that recorded it. */
  trace: TraceContext | undefined;
}

export class ReviewRuns {
  private readonly waiting: Waiting[] = [];
  /** Creates this process is recording now (past their upload, not yet answered). */
  private recording = 0;
  private starting = 0;
  private deferral: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly workflows: Pick<ReviewWorkflows, 'startRecorded'>,
    private readonly log: Logger,
    private readonly o: { deferMs: number; startsAtOnce: number; maxWaiting: number } = {
      deferMs: START_DEFER_MS,
      startsAtOnce: STARTS_AT_ONCE,
      maxWaiting: MAX_WAITING,
    },
  ) {}

  /** Runs a create's recording; the runs waiting to start go once no create is being recorded. */
  async recordingCreate<T>(work: () => Promise<T>): Promise<T> {
    this.recording++;
    try {
      return await work();
    } finally {
      this.recording--;
      this.next();
    }
  }

  /** Starts a recorded review's run soon (creates being recorded first); a start that fails is left to the sweep. */
  startSoon(organizationId: string, record: ReviewRecord, trace?: TraceContext): void {
    // The start joins the create's trace (api/request-tracing.ts), however much later it runs.
    if (this.waiting.length < this.o.maxWaiting)
      this.waiting.push({ organizationId, record, since: Date.now(), trace });
    this.next();
  }

  /** Starts what waits, as many at once as allowed, unless creates being recorded come first. */
  private next(): void {
    const oldest = this.waiting[0];
    if (!oldest) return;
    const deferredFor = this.o.deferMs - (Date.now() - oldest.since);
    if (this.recording > 0 && deferredFor > 0) {
      this.deferral ??= setTimeout(() => {
        this.deferral = undefined;
        this.next();
      }, deferredFor).unref();
      return;
    }
    while (this.starting < this.o.startsAtOnce && this.waiting.length > 0) {
      const { organizationId, record, trace } = this.waiting.shift()!;
      this.starting++;
      void this.start(organizationId, record, undefined, trace).finally(() => {
        this.starting--;
        this.next();
      });
    }
  }

  /** Starts a recorded review's run, and says it is no longer pending; false when it could not yet. */
  async start(
    organizationId: string,
    record: ReviewRecord,
    taskQueue?: string,
    trace?: TraceContext,
  ): Promise<boolean> {
    try {
      await this.workflows.startRecorded(organizationId, record, taskQueue, trace);
      await runStarted(this.sql, record.review.review_id);
      return true;
    } catch (err) {
      this.log.warn(`its workflow run could not be started yet (${(err as Error).message}); a later sweep starts it`, {
        review_id: record.review.review_id,
      });
      return false;
    }
  }

  /** Starts every run pending longer than the grace period (a batch at a time); resolves when done. */
  async sweep(graceSeconds = PENDING_RUN_GRACE_SECONDS): Promise<number> {
    let started = 0;
    for (;;) {
      const pending = await pendingRuns(this.sql, graceSeconds, SWEEP_BATCH);
      const results = await Promise.all(
        pending.map(({ organizationId, record, taskQueue }) => this.start(organizationId, record, taskQueue)),
      );
      started += results.filter(Boolean).length;
      // A batch with a start that failed is tried again at the next sweep, not at once.
      if (pending.length < SWEEP_BATCH || results.includes(false)) return started;
    }
  }

  /** Sweeps every `intervalMs` until stopped (one sweep at a time). */
  sweepEvery(intervalMs = PENDING_RUN_SWEEP_MS): void {
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .then((n) => {
          if (n > 0) this.log.info(`started the workflow runs of ${n} review(s) recorded earlier`);
        })
        .catch((err: unknown) => this.log.warn(`looking for pending workflow runs failed: ${(err as Error).message}`))
        .finally(() => {
          this.sweeping = undefined;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.deferral);
    await this.sweeping;
  }
}
