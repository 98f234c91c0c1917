// The object-store users the service runs as, each allowed what its processes do and no more; setup
// makes them with the store's admin credentials (scripts/migrate.ts, the local stack), which no API or
// worker process holds. The policies are AWS IAM policy documents: on AWS S3 (or any S3 with IAM) give
// three IAM users these policies (`npm run admin -- storage policies` prints them).
import { UPLOADS_PREFIX } from './keys.js';
import type { Config } from '../config.js';
import { iamLoaded, putCannedPolicy, putUser, setUserPolicy, type MinioAdminTarget } from './minio-admin.js';

export const STORAGE_ROLES = ['api', 'worker', 'reports'] as const;
export type StorageRole = (typeof STORAGE_ROLES)[number];

/** Each role's user (its access key) and canned policy name. */
export const SERVICE_USERS: Record<StorageRole, string> = {
  // Streams uploads in (never reads them back), removes refused ones, checks a report exists before linking it.
  api: 'loan-review-api',
  // Reads, unpacks, keeps and writes every object of the bucket.
  worker: 'loan-review-worker',
  // Signs report links only: whoever reads its access key id in a link can read no more than reports.
  reports: 'loan-review-reports',
};

const REPORTS_PREFIX = 'reports/';

export function rolePolicy(role: StorageRole, bucket: string): { Version: string; Statement: object[] } {
  const objects = (prefix: string) => `arn:aws:s3:::${bucket}/${prefix}*`;
  const theBucket = `arn:aws:s3:::${bucket}`;
  const statements: Record<StorageRole, object[]> = {
    api: [
      // Whether the bucket is there (readiness) and whether a report is missing rather than forbidden.
      { Effect: 'Allow', Action: ['s3:ListBucket'], Resource: [theBucket] },
      // Writes uploads as they arrive, tagged transient; never reads them back: the worker ingests them.
      {
        Effect: 'Allow',
        Action: ['s3:PutObject', 's3:PutObjectTagging', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
        Resource: [objects(UPLOADS_PREFIX)],
      },
      // Removes the uploads of a request that no workflow took.
      { Effect: 'Allow', Action: ['s3:DeleteObject'], Resource: [objects(UPLOADS_PREFIX)] },
      { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [objects(REPORTS_PREFIX)] },
    ],
    worker: [
      { Effect: 'Allow', Action: ['s3:ListBucket', 's3:ListBucketMultipartUploads'], Resource: [theBucket] },
      {
        Effect: 'Allow',
        Action: [
          's3:GetObject',
          's3:PutObject',
          's3:DeleteObject',
          's3:GetObjectTagging',
          's3:PutObjectTagging',
          's3:DeleteObjectTagging',
          's3:AbortMultipartUpload',
          's3:ListMultipartUploadParts',
        ],
        Resource: [objects('')],
      },
    ],
    reports: [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: [objects(REPORTS_PREFIX)] }],
  };
  return { Version: '2012-10-17', Statement: statements[role] };
}

/**
 * Makes (or updates) the user of each role given a secret, with its policy, through MinIO's admin API;
 * `admin` is the root user or one allowed to administer users. Idempotent: setup runs it at every start.
 */
export async function provisionServiceUsers(
  admin: MinioAdminTarget,
  bucket: string,
  secrets: Partial<Record<StorageRole, string>>,
): Promise<StorageRole[]> {
  const made: StorageRole[] = [];
  // Setup often runs the moment MinIO answers: what is written before its first load would be lost.
  await iamLoaded(admin);
  for (const role of STORAGE_ROLES) {
    const secret = secrets[role];
    if (!secret) continue;
    const user = SERVICE_USERS[role];
    await putCannedPolicy(admin, user, rolePolicy(role, bucket));
    await putUser(admin, user, secret);
    await setUserPolicy(admin, user, user);
    made.push(role);
  }
  return made;
}

/** The admin API of the configured store, with the configured credentials (setup's: the admin's). */
export function adminTargetOf(config: Pick<Config, 'minio'>): MinioAdminTarget {
  const { endpoint, region, accessKey, secretKey } = config.minio;
  return { endpoint, region, accessKey, secretKey };
}
