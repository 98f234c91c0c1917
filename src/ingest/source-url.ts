// Fetches the documents an integrator gave as signed HTTPS URLs into MinIO staging, where they are unpacked
// like uploads. Every URL is vetted by the address guard and fetched over a connection pinned to the
// checked addresses; redirects are refused; the per-file limit is enforced while the body streams. A
// source is cut off only for its server's faults: silent for the idle time (to connect, to answer, between
// bytes: time this worker was busy elsewhere or held the bytes back does not count), or all the
// submission's sources together still arriving at the total time. A problem with a source is a refusal
// naming `documents[i].url`; a storage problem is thrown as is, for the activity to retry.
import { pipeline } from 'node:stream';
import { ByteBudget } from '../streams/byte-budget.js';
import { IdleWatch } from '../streams/idle-watch.js';
import { checkTarget, UnsafeTargetError, type CheckedTarget } from '../outbound/address-guard.js';
import { pinnedRequest } from '../outbound/pinned-https.js';
import { fetchedSourceKey } from '../storage/keys.js';
import { putStream, removeObjects, type Storage } from '../storage/minio.js';
import type { DocumentSource } from '../reviews/review.js';
import type { StagedFile } from '../reviews/staged-file.js';
import { IngestRejection } from './rejection.js';

export interface SourceFetchOptions {
  storage: Storage;
  reviewId: string;
  maxFileBytes: number;
  /** The review's aggregate limit: the sources of one submission together are cut off past it. */
  maxReviewBytes: number;
  /** The longest a source's server may send nothing: to connect and answer, and between bytes. */
  idleMs: number;
  /** The longest a submission's sources may take together (a server that trickles). */
  totalMs: number;
  /** Test-only: lets sources on this machine through the address guard. */
  allowLoopback: boolean;
}

/** Sources fetched at once; enough to hide latency, few enough to stay polite to one host. */
const CONCURRENCY = 4;

/** Fetches every source into staging, in order; on any refusal removes what it fetched and throws it. */
export async function fetchSources(sources: DocumentSource[], o: SourceFetchOptions): Promise<StagedFile[]> {
  const stop = new AbortController();
  const deadline = AbortSignal.timeout(o.totalMs);
  // Counted as the bytes arrive, over every source at once: past the limit the fetches stop.
  const total = new ByteBudget(
    o.maxReviewBytes,
    () =>
      new IngestRejection(
        'documents_too_large',
        `The documents' sources come to more than the per-review limit of ${o.maxReviewBytes} bytes.`,
      ),
  );
  const staged: StagedFile[] = new Array<StagedFile>(sources.length);
  const keys: string[] = [];
  let next = 0;
  let failure: { index: number; err: unknown } | undefined;
  const fetcher = async () => {
    while (!stop.signal.aborted && next < sources.length) {
      const index = next++;
      const key = fetchedSourceKey(o.reviewId);
      keys.push(key);
      try {
        staged[index] = await fetchSource(sources[index]!, index, key, o, { stop: stop.signal, deadline }, total);
      } catch (err) {
        // Fetches cut short because another source failed are not failures of their own.
        if (stop.signal.aborted) return;
        failure = { index, err };
        stop.abort();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, sources.length) }, fetcher));
  if (failure) {
    await removeObjects(o.storage, keys).catch(() => {});
    throw failure.err;
  }
  return staged;
}

async function fetchSource(
  source: DocumentSource,
  index: number,
  key: string,
  o: SourceFetchOptions,
  ends: { stop: AbortSignal; deadline: AbortSignal },
  total: ByteBudget,
): Promise<StagedFile> {
  const field = `documents[${index}].url`;
  const refuse = (why: string) => new IngestRejection('invalid_request', `Invalid request: ${field}: ${why}.`, field);
  const tooLarge = () =>
    new IngestRejection(
      'document_too_large',
      `${field}: ${source.filename} is larger than the per-file limit of ${o.maxFileBytes} bytes.`,
    );

  let target: CheckedTarget;
  try {
    target = await checkTarget(source.url, { allowLoopback: o.allowLoopback });
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw refuse(err.message);
    throw err;
  }
  const idle = new IdleWatch(o.idleMs);
  const signal = AbortSignal.any([idle.signal, ends.deadline, ends.stop]);
  const why = (err: unknown) =>
    idle.signal.aborted
      ? `sent nothing for ${o.idleMs / 1000} s`
      : ends.deadline.aborted
        ? `the sources did not finish within ${o.totalMs / 1000} s in all`
        : `could not be fetched (${describe(err)})`;
  try {
    const response = await pinnedRequest(target, {
      method: 'GET',
      headers: { accept: '*/*', 'user-agent': 'loan-review-ingest' },
      signal,
    }).catch((err: unknown) => {
      throw refuse(why(err));
    });
    idle.progress();
    const status = response.statusCode ?? 0;
    if (status !== 200) {
      response.destroy();
      if (status >= 300 && status < 400)
        throw refuse(`answered with a redirect (HTTP ${status}); redirects are not followed`);
      throw refuse(`answered HTTP ${status}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > o.maxFileBytes) {
      response.destroy();
      throw tooLarge();
    }

    let sourceError: unknown;
    response.once('error', (err) => (sourceError ??= err));
    // The body reaches the store through the idle watch, which sees each chunk arrive.
    pipeline(response, idle.through, (err) => {
      if (err) sourceError ??= err;
    });
    let content: Awaited<ReturnType<typeof putStream>>;
    try {
      content = await putStream(o.storage, key, idle.through, 'application/octet-stream', {
        maxBytes: o.maxFileBytes,
        tooLarge,
        shared: total,
      });
    } catch (err) {
      await removeObjects(o.storage, [key]).catch(() => {});
      if (err instanceof IngestRejection) throw err;
      if (sourceError !== undefined || signal.aborted) throw refuse(why(sourceError ?? err));
      throw err;
    }
    return { key, filename: source.filename, declaredType: source.content_type, source: 'url', content };
  } finally {
    idle.stop();
  }
}

/** A short, integrator-readable reason for a failed connection (their URL, so no internals of ours). */
function describe(err: unknown): string {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'ECONNABORTED' || code === 'ERR_STREAM_PREMATURE_CLOSE')
    return 'connection closed before the file was complete';
  if (code && /CERT|SELF_SIGNED|TLS|SSL/.test(code)) return `TLS certificate not accepted: ${code}`;
  if (code) return code;
  return err instanceof Error ? err.message : 'unknown error';
}
