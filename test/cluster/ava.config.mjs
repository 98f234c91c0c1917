// `npm run test:cluster`: the service against a secured Temporal cluster (scripts/stack/temporal-cluster.ts)
// rather than the dev server: what only such a cluster shows (test/cluster/), then suites of the main run
// that exercise Temporal end to end, unchanged.
import base from '../../package.json' with { type: 'json' };

export default {
  ...base.ava,
  files: [
    'test/cluster/**/*.test.ts',
    'test/integration/review-workflow.test.ts',
    'test/integration/webhooks.test.ts',
    'test/integration/payload-encryption.test.ts',
    'test/integration/create-multipart.test.ts',
  ],
};
