// What a submission hands its review's workflow: the files it brought, each already stored whole under
// uploads/ (an upload part the API streamed, or a signed URL's file the worker fetched), by key. Ids and
// measurements only: no bytes travel through Temporal.

/** A file as it arrived: an upload part or a fetched URL, already stored whole under uploads/. */
export interface StagedFile {
  key: string;
  filename: string;
  declaredType: string | null;
  source: 'upload' | 'url';
  /**
   * What the stream that staged it measured: its SHA-256 and length. Absent on a file staged without a
   * measuring stream (tests stage some so); such a file is hashed again on ingest.
   */
  content?: Measured;
}

/** A document's bytes as a stream measured them on their way through. */
export interface Measured {
  sha256: string;
  size: number;
}
