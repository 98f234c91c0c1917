// The activities the worker registers, built over the process's shared clients.
import type { Sql } from '../src/db/client.js';
import { createReviewActivities } from './review-record.js';

export interface ActivityDeps {
  sql: Sql;
}

export function createActivities(deps: ActivityDeps) {
  return { ...createReviewActivities(deps) };
}

export type ReviewActivities = ReturnType<typeof createActivities>;
