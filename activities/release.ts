// Releasing a report: render the PDF (also the working document), store it, then commit the release and
// complete the review in one transaction (thin adapters over src/report and src/db/releases).
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { publishRelease } from '../src/db/releases.js';
import { getReviewRecordById } from '../src/db/reviews.js';
import { renderReport } from '../src/report/render.js';
import { outcomeOf, summarize } from '../src/reviews/report.js';
import type { Review } from '../src/reviews/review.js';
import { SANDBOX_ISSUES } from '../src/reviews/sandbox-report.js';
import { putBuffer, type Storage } from '../src/storage/minio.js';

export function reportObjectKey(reviewId: string, releaseId: string): string {
  return `reports/${reviewId}/${releaseId}.pdf`;
}

export function createReleaseActivities({ sql, storage, config }: { sql: Sql; storage: Storage; config: Config }) {
  return {
    /** The canned sandbox release (RULES.md): rendered, stored and released like any other. */
    async releaseSandboxReport(input: { reviewId: string; releaseId: string; generatedAt: string }): Promise<Review> {
      const review = await getReviewRecordById(sql, input.reviewId);
      if (!review) throw new Error(`review ${input.reviewId} does not exist`);
      const issues = [...SANDBOX_ISSUES];
      const content = {
        reviewId: input.reviewId,
        releaseId: input.releaseId,
        referenceId: review.reference_id,
        sandbox: true,
        outcome: outcomeOf(issues),
        summary: summarize(issues),
        issues,
        generatedAt: new Date(input.generatedAt),
      };
      const key = reportObjectKey(input.reviewId, input.releaseId);
      // The PDF first: a release is never committed without its render.
      await putBuffer(storage, key, await renderReport(content, config.secrets.server), 'application/pdf');
      return publishRelease(sql, { id: input.releaseId, reviewId: input.reviewId, outcome: content.outcome, summary: content.summary, issues, reportObjectKey: key, generatedAt: content.generatedAt });
    },
  };
}
