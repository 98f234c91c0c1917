// The activities the worker registers, built over the process's shared clients.
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import type { Storage } from '../src/storage/minio.js';
import { createIngestActivities } from './ingest.js';
import { createReviewActivities } from './review-record.js';
import { createReleaseActivities } from './release.js';

export interface ActivityDeps {
  config: Config;
  sql: Sql;
  storage: Storage;
}

export function createActivities(deps: ActivityDeps) {
  return { ...createIngestActivities(deps), ...createReviewActivities(deps), ...createReleaseActivities(deps) };
}

export type ReviewActivities = ReturnType<typeof createActivities>;
