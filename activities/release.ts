// Releasing a report: render the PDF (also the working document) and store it, then commit the release
// and complete the review in one transaction (thin adapters over src/report and src/db/releases).
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { publishRelease, releaseCount, releaseFindings, reportSheet } from '../src/db/releases.js';
import { activeDecisions } from '../src/db/dispositions.js';
import type { ReleaseRef } from '../src/reviews/pipeline.js';
import { getReviewRecordById } from '../src/db/reviews.js';
import type { Finding } from '../src/qc/finding.js';
import { renderReport } from '../src/report/render.js';
import { releaseContent, type ReleaseContent } from '../src/reviews/report.js';
import type { Review } from '../src/reviews/review.js';
import { SANDBOX_FINDINGS } from '../src/reviews/sandbox-report.js';
import { reportKey } from '../src/storage/keys.js';
import { putBuffer, type Storage } from '../src/storage/minio.js';

/** A release with its findings: what runs started before release drafts pass (LEAN_HISTORY_PATCH, workflows/activity-options.ts). */
export interface LegacyReleaseInput extends ReleaseRef {
  findings: Finding[];
}

export function createReleaseActivities({ sql, storage, config }: { sql: Sql; storage: Storage; config: Config }) {
  /** Renders the release's report and stores it under its key; returns the key. */
  async function renderAndStore(input: ReleaseRef, content: ReleaseContent, sandbox: boolean): Promise<string> {
    const review = await getReviewRecordById(sql, input.reviewId);
    if (!review) throw new Error(`review ${input.reviewId} does not exist`);
    const standing = (await activeDecisions(sql, input.reviewId)).map((d) => ({ findingId: d.findingKey, decision: d.decision, comment: d.comment }));
    const bytes = await renderReport(
      {
        reviewId: input.reviewId,
        releaseId: input.releaseId,
        referenceId: review.reference_id,
        sandbox,
        ...content,
        generatedAt: new Date(input.generatedAt),
        sheet: { ...(await reportSheet(sql, input.reviewId, input.releaseId)), standing },
      },
      config.secrets.server,
    );
    const key = reportKey(input.reviewId, input.releaseId);
    await putBuffer(storage, key, bytes, 'application/pdf');
    return key;
  }

  /** Commits a release whose PDF is stored: the review becomes completed with its report available. */
  function publish(input: ReleaseRef, content: ReleaseContent, key: string): Promise<Review> {
    return publishRelease(sql, { id: input.releaseId, reviewId: input.reviewId, ...content, reportObjectKey: key, generatedAt: new Date(input.generatedAt) });
  }

  /** A drafted release's content, read from its draft (or its release, once published). */
  const drafted = async (input: ReleaseRef): Promise<ReleaseContent> => releaseContent(await releaseFindings(sql, input.reviewId, input.releaseId));

  return {
    /** How many releases a review has had (a run that resumes a review learns whether it was released). */
    async countReleases(input: { reviewId: string }): Promise<number> {
      return releaseCount(sql, input.reviewId);
    },

    /**
     * Renders the report of a release drafted by an analysis and stores it; returns its key. A failure
     * here keeps the release from being published.
     */
    async renderRelease(input: ReleaseRef): Promise<string> {
      return renderAndStore(input, await drafted(input), false);
    },

    /** Publishes a drafted release whose PDF `renderRelease` stored under `reportKey`. */
    async publishRelease(input: ReleaseRef & { reportKey: string }): Promise<Review> {
      return publish(input, await drafted(input), input.reportKey);
    },

    /** Runs started before release drafts: renders a release whose findings come with it. */
    async renderReleaseReport(input: LegacyReleaseInput): Promise<string> {
      return renderAndStore(input, releaseContent(input.findings), false);
    },

    /** Runs started before release drafts: publishes a release whose findings come with it. */
    async publishReviewRelease(input: LegacyReleaseInput & { reportKey: string }): Promise<Review> {
      return publish(input, releaseContent(input.findings), input.reportKey);
    },

    /** The canned sandbox release (RULES.md): rendered, stored and released like any other. */
    async releaseSandboxReport(input: ReleaseRef): Promise<Review> {
      const content = releaseContent(SANDBOX_FINDINGS);
      // The PDF first: a release is never committed without its render.
      return publish(input, content, await renderAndStore(input, content, true));
    },
  };
}
