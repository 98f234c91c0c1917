// A submission's refusal as the ingest and recording activities give it: returned (an answer for the
// integrator, not a failure) and logged in one line under the id of the request it answers.
import type { Refused } from '../src/reviews/pipeline.js';
import { oneLine } from '../src/runtime/log-line.js';

export function refuse(o: { requestId?: string | undefined; what: string; reviewId: string; code: string; message: string }): Refused {
  // The message names the caller's files: kept to one line whatever their names hold.
  console.log(oneLine(`worker: [${o.requestId ?? 'no request id'}] ${o.what} of review ${o.reviewId} refused: ${o.code}: ${o.message}`));
  return { refused: { code: o.code, message: o.message } };
}
