// Analysis for the review workflow: the organization's policy, fleet-wide analysis slots, and the
// analysis itself (thin adapters over src/qc and src/db).
import { Context } from '@temporalio/activity';
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { acquireAnalysisSlot, releaseAnalysisSlot, type SlotRequest } from '../src/db/analysis-slots.js';
import { evidenceDocuments, setDocumentClasses } from '../src/db/documents.js';
import { activeDecisions } from '../src/db/dispositions.js';
import { getOrganization } from '../src/db/organizations.js';
import { analyseDocuments } from '../src/qc/analyse.js';
import { tesseractOcr } from '../src/qc/reading/document.js';
import { particularsOf, type Particulars } from '../src/report/particulars.js';
import type { Finding } from '../src/qc/finding.js';
import { applyDecisions } from '../src/working-document/decisions.js';
import { slotsInUse, type AnalysisSummary, type PassBegun, type ReviewPolicy } from '../src/reviews/pipeline.js';
import { recordTransition } from '../src/db/reviews.js';
import { customerStatus, type InternalState } from '../src/reviews/states.js';
import { saveReleaseDraft } from '../src/db/releases.js';
import { readBuffer, type Storage } from '../src/storage/minio.js';

/** The part of analyseReview's start-to-close timeout (60 min, workflows/review.ts) spent reading files. */
const READING_SHARE_OF_TIMEOUT = 0.75;

/**
 * What `analyseReview` returned to runs started before release drafts (LEAN_HISTORY_PATCH, workflows/activity-options.ts): the
 * findings themselves. Kept until no such run can remain (30 days after the change); see docs/development.md.
 */
export interface LegacyAnalysisResult extends Omit<AnalysisSummary, 'releaseId' | 'findings'> {
  findings: Finding[];
}

export function createAnalysisActivities({ sql, storage, config }: { sql: Sql; storage: Storage; config: Config }) {
  /** Reads and classifies every evidence document of the review and derives its findings. */
  async function analyse(reviewId: string): Promise<LegacyAnalysisResult & { particulars: Particulars }> {
    const docs = await evidenceDocuments(sql, reviewId);
    const ctx = Context.current();
    // A heartbeat on a clock as well as per document: one large document may take longer to read than
    // the heartbeat timeout, and the worker is alive all the same.
    let done = 0;
    const beat = setInterval(() => ctx.heartbeat(done), 5_000);
    // Reading stops (pages illegible, files unreadable) with a quarter of the activity's timeout left
    // for the rules and the bookkeeping below: a package too large to read in time (thousands of
    // scanned pages) is reported as far as it was read, rather than timed out and retried in vain.
    const { startToCloseTimeoutMs } = ctx.info;
    const deadline = startToCloseTimeoutMs > 0 ? Date.now() + startToCloseTimeoutMs * READING_SHARE_OF_TIMEOUT : Infinity;
    const analysis = await analyseDocuments(docs, (key) => readBuffer(storage, key), (n) => ctx.heartbeat((done = n)), {
      ocr: tesseractOcr,
      concurrency: config.qc.ocrWorkers,
      deadline,
    }).finally(() => clearInterval(beat));
    // A file split into several logical documents records each class, in page order.
    await setDocumentClasses(
      sql,
      analysis.documents.map((d) => ({ id: d.id, documentClass: d.unreadable === null ? d.classes.join(',') : null })),
    );
    const { findings, disputed, disputes } = applyDecisions(analysis.findings, await activeDecisions(sql, reviewId));
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

  async function reviewPolicy(organizationId: string): Promise<ReviewPolicy> {
    const org = await getOrganization(sql, organizationId);
    return {
      maxConcurrentAnalyses: org?.maxConcurrentAnalyses ?? config.limits.maxConcurrentAnalyses,
      releasePolicy: org?.releasePolicy ?? 'auto',
      awaitingDocumentsSeconds: org?.awaitingDocumentsSeconds ?? config.limits.awaitingDocumentsDays * 86_400,
    };
  }

  return {
    /**
     * Begins a pass of the pipeline: reads the organization's settings (at each pass, so that an operator's
     * change applies to the next), takes one of its analysis slots if one is free, and writes the transition
     * that leads to, unless the review is there already: `working` with a slot, `waiting_for_capacity`
     * without. One local activity where there were three: each is a round through the worker, and a burst
     * of creates waits for every one of them inside the create's workflow task.
     */
    async beginPass(input: { reviewId: string; organizationId: string; working: InternalState; current: InternalState }): Promise<PassBegun> {
      const policy = await reviewPolicy(input.organizationId);
      const limit = policy.maxConcurrentAnalyses;
      const slot = await acquireAnalysisSlot(sql, { reviewId: input.reviewId, organizationId: input.organizationId, limit });
      const next: InternalState = slot ? input.working : 'waiting_for_capacity';
      if (next !== input.current) {
        await recordTransition(sql, { reviewId: input.reviewId, internalState: next, status: customerStatus(next), detail: slot ? null : slotsInUse(limit) });
      }
      return { policy, slot };
    },

    /**
     * Gives the slot back and returns the reviews granted the slots now free, to be told. A worker still on
     * the workflow code from before slot grants (a rolling deploy) passes no limit: the organization's is read.
     */
    async releaseAnalysisSlot(input: Omit<SlotRequest, 'limit'> & { limit?: number }): Promise<string[]> {
      const limit = input.limit ?? (await reviewPolicy(input.organizationId)).maxConcurrentAnalyses;
      return releaseAnalysisSlot(sql, { reviewId: input.reviewId, organizationId: input.organizationId, limit });
    },

    /**
     * Reads and classifies every evidence document of the review, derives its findings and stores them as
     * the draft of release `releaseId`; returns the counts.
     */
    async analyseToDraft(input: { reviewId: string; releaseId: string }): Promise<AnalysisSummary> {
      const { findings, particulars, ...counts } = await analyse(input.reviewId);
      await saveReleaseDraft(sql, { id: input.releaseId, reviewId: input.reviewId, findings, particulars });
      return { releaseId: input.releaseId, ...counts, findings: findings.length };
    },

    /** Runs started before release drafts: the same analysis, its findings returned. */
    async analyseReview(input: { reviewId: string }): Promise<LegacyAnalysisResult> {
      // (Their releases are rendered without page 1's particulars: only ids and counts go to history.)
      const { particulars: _notKept, ...result } = await analyse(input.reviewId);
      return result;
    },
  };
}
