// Where each kind of object lives in the bucket: the one module that knows the layout. Everything under
// staging/ is transient and expires after a day (minio.ts), so a crash never leaves it for good.
import { randomUUID } from 'node:crypto';

/** The prefix of transient objects: uploads, fetched sources and unpacked members not yet committed. */
export const STAGING_PREFIX = 'staging/';

/** A multipart upload part as it streams in, under the organization (operators see whose uploads are in flight). */
export function uploadKey(organizationId: string): string {
  return `${STAGING_PREFIX}uploads/${organizationId}/${randomUUID()}`;
}

/** A signed source URL's file as fetched. */
export function fetchedSourceKey(reviewId: string): string {
  return `${STAGING_PREFIX}sources/${reviewId}/${randomUUID()}`;
}

/** A document unpacked (or copied) from a submission, hashed, before it is committed to the review. */
export function unpackedKey(reviewId: string): string {
  return `${STAGING_PREFIX}${reviewId}/${randomUUID()}`;
}

/** A review's document, by its content: one object however often it is sent. */
export function documentKey(reviewId: string, sha256: string): string {
  return `documents/${reviewId}/${sha256}`;
}

/** A release's report PDF (the working document). */
export function reportKey(reviewId: string, releaseId: string): string {
  return `reports/${reviewId}/${releaseId}.pdf`;
}
