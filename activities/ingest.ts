// Ingest for the review workflow: fetch signed source URLs and unpack staged uploads into documents (a
// thin adapter over src/ingest/submission.ts), stored for the activity that records them.
import { contextLog } from './context-log.js';
import { heartbeating } from './heartbeat.js';
import type { Config } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import { saveIngestedSubmission } from '../src/db/submissions.js';
import { submissionIngester, type IngestSubmissionInput } from '../src/ingest/submission.js';
import { isRefused, type Refused } from '../src/reviews/pipeline.js';
import type { Storage } from '../src/storage/minio.js';

/** The submission as stored (src/db/submissions.ts): the recording activity reads it by this id. */
export interface IngestSubmissionResult {
  submissionId: string;
}

export function createIngestActivities(deps: { sql: Sql; storage: Storage; config: Config }) {
  const ingested = submissionIngester({ ...deps, log: contextLog });
  return {
    ingestSubmission(input: IngestSubmissionInput): Promise<IngestSubmissionResult | Refused> {
      return heartbeating(async () => {
        const submission = await ingested(input);
        if (isRefused(submission)) return submission;
        return { submissionId: await saveIngestedSubmission(deps.sql, input.reviewId, submission) };
      });
    },
  };
}
