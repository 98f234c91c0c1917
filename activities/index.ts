// The activities the worker registers, built over the process's shared clients.
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import type { Storage } from '../src/storage/minio.js';
import { createAnalysisActivities } from './analysis.js';
import { createDeletionActivities } from './deletion.js';
import { createIngestActivities } from './ingest.js';
import { createReleaseActivities } from './release.js';
import { createReviewActivities } from './review-record.js';
import { createRetentionActivities } from './retention.js';
import { createWebhookActivities } from './webhooks.js';

export interface ActivityDeps {
  config: Config;
  sql: Sql;
  storage: Storage;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createIngestActivities(deps),
    ...createReviewActivities(deps),
    ...createAnalysisActivities(deps),
    ...createReleaseActivities(deps),
    ...createWebhookActivities(deps),
    ...createDeletionActivities(deps),
    ...createRetentionActivities(deps),
  };
}

export type ReviewActivities = ReturnType<typeof createActivities>;
