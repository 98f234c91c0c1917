// Analysis for the review workflow: the organization's policy, fleet-wide analysis slots, and the
// analysis itself (thin adapters over src/qc and src/db).
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { releaseAnalysisSlot, type SlotRequest } from '../src/db/analysis-slots.js';
import { evidenceDocuments, setDocumentClasses } from '../src/db/documents.js';
import { activeDecisions } from '../src/db/dispositions.js';
import { analyseDocuments } from '../src/qc/analyse.js';
import { tesseractOcr, timedOcr } from '../src/qc/reading/document.js';
import { countAnalysis, timedWork, workerMetrics } from '../src/telemetry/worker-metrics.js';
import { particularsOf, type Particulars } from '../src/report/particulars.js';
import type { Finding } from '../src/qc/finding.js';
import { applyDecisions } from '../src/working-document/decisions.js';
import type { AnalysisSummary, PassBegun } from '../src/reviews/pipeline.js';
import { beginPass, type PassRequest } from '../src/reviews/pass.js';
import { saveReleaseDraft } from '../src/db/releases.js';
import { readBuffer, type Storage } from '../src/storage/minio.js';
import { BEAT_MS } from './heartbeat.js';

/** The part of analyseToDraft's start-to-close timeout (60 min, workflows/review.ts) spent reading files. */
const READING_SHARE_OF_TIMEOUT = 0.75;

/** An analysis: its counts and the findings themselves, which are stored as a release's draft. */
interface AnalysisResult extends Omit<AnalysisSummary, 'releaseId' | 'findings'> {
  findings: Finding[];
}

export function createAnalysisActivities({ sql, storage, config }: { sql: Sql; storage: Storage; config: Config }) {
  /**
   * Reads and classifies every evidence document of the review and derives its findings; rejects with the
   * cancellation once `stopped` is aborted.
   */
  async function analyse(
    reviewId: string,
    stopped: AbortSignal,
  ): Promise<AnalysisResult & { particulars: Particulars }> {
    const docs = await evidenceDocuments(sql, reviewId);
    const ctx = Context.current();
    // A heartbeat on a clock as well as per document: one large document may take longer to read than
    // the heartbeat timeout, and the worker is alive all the same. Heartbeats also bring a cancellation.
    let done = 0;
    const beat = setInterval(() => ctx.heartbeat(done), BEAT_MS);
    // Reading stops (pages illegible, files unreadable) with a quarter of the activity's timeout left
    // for the rules and the bookkeeping below: a package too large to read in time (thousands of
    // scanned pages) is reported as far as it was read, rather than timed out and retried in vain.
    const { startToCloseTimeoutMs } = ctx.info;
    const deadline =
      startToCloseTimeoutMs > 0 ? Date.now() + startToCloseTimeoutMs * READING_SHARE_OF_TIMEOUT : Infinity;
    const analysis = await analyseDocuments(
      docs,
      (key) => readBuffer(storage, key),
      (n) => ctx.heartbeat((done = n)),
      {
        ocr: timedOcr(tesseractOcr, (seconds) => workerMetrics.ocrSeconds.inc(seconds)),
        concurrency: config.qc.ocrWorkers,
        deadline,
        signal: stopped,
      },
    ).finally(() => clearInterval(beat));
    // A file split into several logical documents records each class, in page order.
    await setDocumentClasses(
      sql,
      analysis.documents.map((d) => ({ id: d.id, documentClass: d.unreadable === null ? d.classes.join(',') : null })),
    );
    const { findings, disputed, disputes } = applyDecisions(analysis.findings, await activeDecisions(sql, reviewId));
    countAnalysis(
      analysis.loan.documents.flatMap((d) => d.pages),
      findings,
    );
    return {
      documents: analysis.documents.length,
      unreadable: analysis.documents.filter((d) => d.unreadable !== null).length,
      primaryPresent: analysis.primaryPresent,
      nothingReadable: analysis.nothingReadable,
      findings,
      disputed,
      disputes,
      particulars: particularsOf(analysis),
    };
  }

  return {
    /** Begins a pass of the pipeline (src/reviews/pass.ts): the settings, a slot and the transition in one activity. */
    async beginPass(input: PassRequest): Promise<PassBegun> {
      return beginPass(sql, config.limits, input, (waited) => workerMetrics.analysisSlotWait.observe(waited));
    },

    /** Gives the slot back and returns the reviews granted the slots now free, to be told. */
    async releaseAnalysisSlot(input: SlotRequest): Promise<string[]> {
      return releaseAnalysisSlot(sql, input);
    },

    /**
     * Reads and classifies every evidence document of the review, derives its findings and stores them as
     * the draft of release `releaseId`; returns the counts.
     */
    async analyseToDraft(input: { reviewId: string; releaseId: string }): Promise<AnalysisSummary> {
      const stopped = cancelledByServer(Context.current());
      const { findings, particulars, ...counts } = await timedWork(
        workerMetrics.analysisDuration,
        () => analyse(input.reviewId, stopped),
        stopped,
      );
      await saveReleaseDraft(sql, { id: input.releaseId, reviewId: input.reviewId, findings, particulars });
      return { releaseId: input.releaseId, ...counts, findings: findings.length };
    },
  };
}

/**
 * Aborted when Temporal cancels the activity (its review is being deleted, the attempt timed out), which it
 * tells in the answer to a heartbeat: reading then stops at the pages under way and the activity ends
 * cancelled, having written nothing. Not when the worker itself stops: a worker stopped with SIGTERM
 * finishes the analyses it has (docs/operations.md), rather than leave them to be read again from the start.
 */
function cancelledByServer(ctx: Context): AbortSignal {
  const { cancellationSignal } = ctx;
  const stop = new AbortController();
  const heard = () => {
    const reason: unknown = cancellationSignal.reason;
    const shutdown =
      ctx.cancellationDetails?.workerShutdown === true ||
      (reason instanceof CancelledFailure && reason.message === 'WORKER_SHUTDOWN');
    if (!shutdown) stop.abort(reason);
  };
  if (cancellationSignal.aborted) heard();
  else cancellationSignal.addEventListener('abort', heard, { once: true });
  return stop.signal;
}
