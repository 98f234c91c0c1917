// The worker registers every activity without loading the activities' modules (each stub loads them at
// its first call; every review of the integration suite goes through them).
import test from 'ava';
import { createActivities } from '../../../activities/index.js';
import { ACTIVITY_NAMES, lazyActivities } from '../../../activities/lazy.js';
import type { Config } from '../../../src/config.js';

test('the lazy activities are every activity, by name', (t) => {
  const all = Object.keys(createActivities({ config: {} as Config, sql: {} as never, storage: {} as never }));
  t.deepEqual([...ACTIVITY_NAMES].sort(), all.sort());
  t.deepEqual(
    Object.keys(
      lazyActivities(async () => ({ config: {} as Config, sql: {} as never, storage: {} as never })).activities,
    ).sort(),
    all.sort(),
  );
});
