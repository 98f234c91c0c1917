// Where each kind of object lives in the bucket: the one module that knows the layout. Whatever arrives
// (an upload, a fetched source, an unpacked member) is written once under uploads/, tagged transient, and
// expires after a day unless a submission keeps it (minio.ts): a crash never leaves it for good, and a
// kept one becomes its review's document where it lies, by dropping the tag (no copy of its bytes).
import { randomUUID } from 'node:crypto';

/** Where arriving objects are written (tagged TRANSIENT_TAG until kept). */
export const UPLOADS_PREFIX = 'uploads/';

/** The tag of objects not (yet) kept by a review: the bucket's lifecycle expires them after a day. */
export const TRANSIENT_TAG = { key: 'transient', value: 'true' } as const;

/** A multipart upload part as it streams in, under the organization (operators see whose uploads are in flight). */
export function uploadKey(organizationId: string): string {
  return `${UPLOADS_PREFIX}${organizationId}/${randomUUID()}`;
}

/** A signed source URL's file as fetched. */
export function fetchedSourceKey(reviewId: string): string {
  return `${UPLOADS_PREFIX}sources/${reviewId}/${randomUUID()}`;
}

/** A document unpacked from a package, hashed, before it is committed to the review. */
export function unpackedKey(reviewId: string): string {
  return `${UPLOADS_PREFIX}members/${reviewId}/${randomUUID()}`;
}

/** A release's report PDF (the working document). */
export function reportKey(reviewId: string, releaseId: string): string {
  return `reports/${reviewId}/${releaseId}.pdf`;
}

/** Every prefix under which objects of one review alone are written (its documents lie where they arrived). */
export function reviewPrefixes(reviewId: string): string[] {
  return [`reports/${reviewId}/`, `${UPLOADS_PREFIX}sources/${reviewId}/`, `${UPLOADS_PREFIX}members/${reviewId}/`];
}
