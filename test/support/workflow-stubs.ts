// Stub activities for the review workflow's tests on a dev server of their own (test/workflow/): each
// answers what a scenario needs and records what the workflow asked of it. No Postgres, MinIO or QC engine.
import { ApplicationFailure } from '@temporalio/common';
import type { ReviewActivities } from '../../activities/index.js';
import type { AnalysisSummary, ReviewPolicy } from '../../src/reviews/pipeline.js';
import type { InternalState } from '../../src/reviews/states.js';
import { stubReview } from './workflow-server.js';

export interface Scenario {
  policy?: Partial<ReviewPolicy>;
  /** What each analysis finds (the last one repeats). */
  analyses?: Partial<Omit<AnalysisSummary, 'releaseId'>>[];
  /** Render attempts that fail before one succeeds. */
  failedRenders?: number;
  /** The reviews that giving back the analysis slot grants slots to. */
  granted?: string[];
}

/** Stub activities for one review, and what the workflow asked of them. */
export function stubs(reviewId: string, scenario: Scenario) {
  // Each announced event by its id, as the events table holds it for deliveries.
  const published = new Map<string, string>();
  const calls = {
    states: [] as InternalState[],
    analyses: 0,
    renders: 0,
    published: [] as { releaseId: string; at: number }[],
    events: [] as string[],
  };
  const policy: ReviewPolicy = {
    maxConcurrentAnalyses: 4,
    releasePolicy: 'auto',
    awaitingDocumentsSeconds: 3_600,
    ...scenario.policy,
  };
  const analyses = scenario.analyses ?? [{}];
  // The review recorded with its first pass begun, as the create's activity does.
  const created = async () => {
    calls.states.push('analysing');
    return { review: stubReview(reviewId, 'processing'), pass: { policy, slot: true } };
  };
  const activities = {
    async ingestSubmission() {
      return { submissionId: '00000000-0000-4000-8000-000000000001' };
    },
    async createReview() {
      return created();
    },
    async discardUploads() {},
    async recordState(input: { internalState: InternalState }) {
      calls.states.push(input.internalState);
    },
    async beginPass(input: { working: InternalState; current: InternalState }) {
      if (input.working !== input.current) calls.states.push(input.working);
      return { policy, slot: true };
    },
    async releaseAnalysisSlot(): Promise<string[]> {
      return scenario.granted ?? [];
    },
    async analyseToDraft(input: { releaseId: string }): Promise<AnalysisSummary> {
      const found = analyses[Math.min(calls.analyses++, analyses.length - 1)];
      return {
        releaseId: input.releaseId,
        documents: 1,
        unreadable: 0,
        primaryPresent: true,
        nothingReadable: false,
        findings: 2,
        disputed: 0,
        disputes: [],
        ...found,
      };
    },
    async renderRelease(input: { releaseId: string }) {
      if (calls.renders++ < (scenario.failedRenders ?? 0))
        throw ApplicationFailure.nonRetryable('MinIO is not answering');
      return `reports/${reviewId}/${input.releaseId}.pdf`;
    },
    async publishRelease(input: { releaseId: string }) {
      calls.published.push({ releaseId: input.releaseId, at: Date.now() });
      return stubReview(reviewId, 'completed');
    },
    async publishEvent(input: { eventId: string; event: string }) {
      published.set(input.eventId, input.event);
      return ['endpoint-1'];
    },
    async deliverWebhook(input: { eventId: string }) {
      calls.events.push(published.get(input.eventId) ?? `unrecorded event ${input.eventId}`);
      return 'delivered' as const;
    },
  } satisfies Partial<ReviewActivities>;
  return { activities, calls };
}
