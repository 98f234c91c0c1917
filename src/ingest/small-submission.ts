// Which submissions are small: uploads alone (no source URL to fetch, which takes as long as the source
// does) coming to at most SMALL_SUBMISSION_MAX_BYTES. A small create is ingested and recorded at once,
// within the request (by the API for a live key) or within the workflow task that accepts it (a sandbox
// key's); a bigger one, or one with source URLs, gets an ingest activity of its own, whose time holds no
// API process and no workflow task. Pure: the workflow bundle imports it.
import type { StagedFile } from './package.js';

export const SMALL_SUBMISSION_MAX_BYTES = 8 * 1024 * 1024;

export function isSmallSubmission({
  files,
  sources,
}: {
  files: readonly StagedFile[];
  sources: readonly unknown[];
}): boolean {
  if (sources.length > 0) return false;
  let bytes = 0;
  for (const f of files) {
    if (!f.content) return false;
    bytes += f.content.size;
  }
  return bytes <= SMALL_SUBMISSION_MAX_BYTES;
}
