// A worker process's own metrics, served at /metrics on its operations port beside the Temporal SDK's
// (src/telemetry/ops-server.ts). Activities record them where the work is done; labels are bounded sets
// (finding codes and severities, statuses, outcomes), never ids or organizations.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const workerRegistry = new Registry();
collectDefaultMetrics({ register: workerRegistry });

/** Seconds, from a tenth to ten minutes: analyses and renders of packages small and large. */
const WORK_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600];

export const workerMetrics = {
  analysisDuration: new Histogram({
    name: 'loan_review_analysis_duration_seconds',
    help: "A review's analysis (reading every document and running the rules), by outcome (ok, error, cancelled).",
    labelNames: ['outcome'] as const,
    buckets: WORK_SECONDS,
    registers: [workerRegistry],
  }),
  pagesRead: new Counter({
    name: 'loan_review_pages_read_total',
    help: 'Pages read by analyses, by source: text_layer (the PDF has its text) or ocr (a scan or photo).',
    labelNames: ['source'] as const,
    registers: [workerRegistry],
  }),
  ocrSeconds: new Counter({
    name: 'loan_review_ocr_seconds_total',
    help: 'Seconds OCR engines spent reading pages.',
    registers: [workerRegistry],
  }),
  findings: new Counter({
    name: 'loan_review_findings_total',
    help: 'Findings raised by analyses, by rule code and severity.',
    labelNames: ['code', 'severity'] as const,
    registers: [workerRegistry],
  }),
  reviewsFinished: new Counter({
    name: 'loan_review_reviews_finished_total',
    help: 'Reviews that reached a final status (completed, failed).',
    labelNames: ['status'] as const,
    registers: [workerRegistry],
  }),
  analysisSlotWait: new Histogram({
    name: 'loan_review_analysis_slot_wait_seconds',
    help: "Time a review waited for one of its organization's analysis slots before its analysis began.",
    buckets: [0, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [workerRegistry],
  }),
  webhookDeliveries: new Counter({
    name: 'loan_review_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (delivered, failed) and attempt (1, 2, 3, 4, 5+).',
    labelNames: ['outcome', 'attempt'] as const,
    registers: [workerRegistry],
  }),
  reportRenderDuration: new Histogram({
    name: 'loan_review_report_render_duration_seconds',
    help: "Rendering a review's report PDF, by outcome (ok, error).",
    labelNames: ['outcome'] as const,
    buckets: WORK_SECONDS,
    registers: [workerRegistry],
  }),
};

/**
 * `loan_review_worker_polling{queue}`: 1 while this process polls each queue it serves, read at the scrape.
 * Its absence or a 0 is the "no worker polling" alert (deploy/prometheus/alerts.yml).
 */
export function watchPolling(queues: readonly string[], polling: () => boolean): void {
  new Gauge({
    name: 'loan_review_worker_polling',
    help: 'Whether this worker process polls its task queue (reviews, analysis): 1 polling, 0 not (yet).',
    labelNames: ['queue'] as const,
    registers: [workerRegistry],
    collect() {
      for (const queue of queues) this.set({ queue }, polling() ? 1 : 0);
    },
  });
}

/** An attempt number as its label: 1 to 4 as themselves, later ones together. */
export function attemptLabel(attempt: number): string {
  return attempt >= 5 ? '5+' : String(Math.max(1, attempt));
}

/** What an analysis read and found, counted: pages by where their text came from, findings by code and severity. */
export function countAnalysis(
  pages: readonly { source: 'text_layer' | 'ocr' }[],
  findings: readonly { code: string; severity: string }[],
): void {
  for (const page of pages) workerMetrics.pagesRead.inc({ source: page.source });
  for (const f of findings) workerMetrics.findings.inc({ code: f.code, severity: f.severity });
}

/**
 * `work` timed into `histogram` with its outcome: ok, error, or cancelled (it failed once `cancelled` was
 * aborted: stopped because it was no longer wanted).
 */
export async function timedWork<T>(
  histogram: Histogram<'outcome'>,
  work: () => Promise<T>,
  cancelled?: AbortSignal,
): Promise<T> {
  const end = histogram.startTimer();
  try {
    const result = await work();
    end({ outcome: 'ok' });
    return result;
  } catch (err) {
    end({ outcome: cancelled?.aborted ? 'cancelled' : 'error' });
    throw err;
  }
}
