// The activities as the worker registers them: each a stub that loads the activities' modules, and makes
// what they depend on, at the first call of any of them (or when `load` is called), so that the worker
// polls without first loading pdf.js, sharp, the canvas, tesseract.js, pdf-lib, MinIO's client and the
// rest. They were most of the worker's start, and the start is what the service's readiness waits for;
// the worker loads them once it polls.
import type { ActivityDeps, ReviewActivities } from './index.js';

/** Every activity's name, known without loading a module (test/unit/activities checks it is all of them). */
export const ACTIVITY_NAMES = [
  'ingestSubmission',
  'createReview',
  'discardUploads',
  'recordAddedDocuments',
  'applyWorkingDocument',
  'recordState',
  'beginPass',
  'releaseAnalysisSlot',
  'analyseToDraft',
  'countReleases',
  'renderRelease',
  'publishRelease',
  'releaseSandboxReport',
  'publishEvent',
  'deliverWebhook',
  'purgeReview',
  'deleteReviewHistories',
  'retentionPolicies',
  'expiredReviews',
  'deleteExpiredReview',
] as const satisfies readonly (keyof ReviewActivities)[];

type Stub = (...args: unknown[]) => Promise<unknown>;

export function lazyActivities(deps: () => Promise<ActivityDeps>): {
  activities: ReviewActivities;
  load: () => Promise<ReviewActivities>;
} {
  let loaded: Promise<ReviewActivities> | undefined;
  const load = () =>
    (loaded ??= Promise.all([import('./index.js'), deps()]).then(([{ createActivities }, made]) =>
      createActivities(made),
    ));
  const stubs: Record<string, Stub> = {};
  for (const name of ACTIVITY_NAMES) {
    stubs[name] = async (...args) => ((await load())[name] as Stub)(...args);
  }
  // Each stub takes and gives what its activity does: the one place the two types are tied by hand.
  return { activities: stubs as unknown as ReviewActivities, load };
}
