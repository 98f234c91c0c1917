// Releasing a report: render the PDF (also the working document) and store it, then commit the release
// and complete the review in one transaction (thin adapters over src/report and src/db/releases).
import { timedWork, workerMetrics } from '../src/telemetry/worker-metrics.js';
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { publishRelease, releaseCount, releaseFindings, reportSheet } from '../src/db/releases.js';
import { activeDecisions } from '../src/db/dispositions.js';
import type { ReleaseRef } from '../src/reviews/pipeline.js';
import { getReviewRecordById } from '../src/db/reviews.js';
import type { Finding } from '../src/qc/finding.js';
import { Context } from '@temporalio/activity';
import { evidenceDocuments } from '../src/db/documents.js';
import { evidencePictures, openPageSource } from '../src/report/evidence-pictures.js';
import { renderReport } from '../src/report/render.js';
import { releaseContent, type ReleaseContent } from '../src/reviews/report.js';
import type { Review } from '../src/reviews/review.js';
import { SANDBOX_FINDINGS } from '../src/reviews/sandbox-report.js';
import { reportKey } from '../src/storage/keys.js';
import { putBuffer, readBuffer, type Storage } from '../src/storage/minio.js';

/** Of the render activity's time, what drawing the evidence's pages may take. */
const PICTURES_SHARE_OF_TIMEOUT = 0.35;

export function createReleaseActivities({ sql, storage, config }: { sql: Sql; storage: Storage; config: Config }) {
  /**
   * Pictures of the evidence, cut from the review's files as stored. They take at most a share of the
   * activity's time: a report whose files draw slowly is released with fewer pictures, not late.
   */
  async function picturesOf(reviewId: string, findings: readonly Finding[]) {
    if (!findings.some((f) => f.evidence.some((e) => e.box))) return new Map();
    const files = await evidenceDocuments(sql, reviewId);
    const { startToCloseTimeoutMs } = Context.current().info;
    const deadline =
      Date.now() + (startToCloseTimeoutMs > 0 ? startToCloseTimeoutMs * PICTURES_SHARE_OF_TIMEOUT : 30_000);
    return evidencePictures(
      findings,
      async (document) => {
        // A file is cited by its name as uploaded (its path, in an archive).
        const file = files.find((f) => f.filename === document);
        return file && openPageSource(await readBuffer(storage, file.objectKey), file.mime);
      },
      { deadline },
    );
  }

  /** Renders the release's report and stores it under its key; returns the key. */
  async function renderAndStore(input: ReleaseRef, content: ReleaseContent, sandbox: boolean): Promise<string> {
    const review = await getReviewRecordById(sql, input.reviewId);
    if (!review) throw new Error(`review ${input.reviewId} does not exist`);
    const standing = (await activeDecisions(sql, input.reviewId)).map((d) => ({
      findingId: d.findingKey,
      decision: d.decision,
      comment: d.comment,
    }));
    const bytes = await timedWork(workerMetrics.reportRenderDuration, async () =>
      renderReport(
        {
          reviewId: input.reviewId,
          releaseId: input.releaseId,
          referenceId: review.reference_id,
          sandbox,
          ...content,
          generatedAt: new Date(input.generatedAt),
          sheet: { ...(await reportSheet(sql, input.reviewId, input.releaseId)), standing },
          pictures: await picturesOf(input.reviewId, content.findings),
        },
        config.secrets.server,
      ),
    );
    const key = reportKey(input.reviewId, input.releaseId);
    await putBuffer(storage, key, bytes, 'application/pdf');
    return key;
  }

  /** Commits a release whose PDF is stored: the review becomes completed with its report available. */
  async function publish(input: ReleaseRef, content: ReleaseContent, key: string): Promise<Review> {
    const review = await publishRelease(sql, {
      id: input.releaseId,
      reviewId: input.reviewId,
      ...content,
      reportObjectKey: key,
      generatedAt: new Date(input.generatedAt),
    });
    // The release's own transition to released (the workflow records no other).
    workerMetrics.reviewsFinished.inc({ status: 'completed' });
    return review;
  }

  /** A drafted release's content, read from its draft (or its release, once published). */
  const drafted = async (input: ReleaseRef): Promise<ReleaseContent> =>
    releaseContent(await releaseFindings(sql, input.reviewId, input.releaseId));

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

    /** The canned sandbox release (RULES.md): rendered, stored and released like any other. */
    async releaseSandboxReport(input: ReleaseRef): Promise<Review> {
      const content = releaseContent(SANDBOX_FINDINGS);
      // The PDF first: a release is never committed without its render.
      return publish(input, content, await renderAndStore(input, content, true));
    },
  };
}
