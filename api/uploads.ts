// Multipart uploads streamed straight to MinIO uploads/ as they arrive (a multer storage engine): each
// part is counted and hashed on the way (putStream) and cut off past the per-file limit, and the parts
// of a request together past the per-review limit. The API never holds a file.
import { apiMetrics } from '../src/telemetry/api-metrics.js';
import type { Request } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { FileNameSchema } from '../src/reviews/review.js';
import { uploadKey } from '../src/storage/keys.js';
import { putStream, removeObjects, type Storage } from '../src/storage/minio.js';
import { ByteBudget } from '../src/streams/byte-budget.js';
import { caller } from './auth.js';
import { ApiError } from './errors.js';

export interface StagedPart {
  key: string;
  size: number;
  sha256: string;
}

class StagingStorage implements StorageEngine {
  /** Each request's parts together, counted against the per-review limit as they arrive. */
  private readonly totals = new WeakMap<Request, ByteBudget>();

  constructor(
    private readonly storage: Storage,
    private readonly maxFileBytes: number,
    private readonly maxReviewBytes: number,
  ) {}

  private totalOf(req: Request): ByteBudget {
    let total = this.totals.get(req);
    if (!total) {
      const limit = this.maxReviewBytes;
      total = new ByteBudget(limit, () =>
        ApiError.of('documents_too_large', `The documents come to more than the per-review limit of ${limit} bytes.`),
      );
      this.totals.set(req, total);
    }
    return total;
  }

  _handleFile(
    req: Request,
    file: Express.Multer.File,
    cb: (error?: unknown, info?: Partial<Express.Multer.File>) => void,
  ): void {
    // Under the organization, so an operator can tell whose uploads are in flight.
    const key = uploadKey(caller(req.res!).organizationId);
    const tooLarge = () => ApiError.of('document_too_large', `${file.originalname} is larger than the per-file limit.`);
    putStream(this.storage, key, file.stream, 'application/octet-stream', {
      maxBytes: this.maxFileBytes,
      tooLarge,
      shared: this.totalOf(req),
    }).then(
      ({ size, sha256 }) => {
        apiMetrics.uploadBytes.inc(size);
        cb(null, { key, size, sha256 } as Partial<Express.Multer.File>);
      },
      async (err: unknown) => {
        // A part cut off mid-way may have left an object (or an incomplete multipart upload) behind.
        await removeObjects(this.storage, [key]).catch(() => {});
        cb(err);
      },
    );
  }

  _removeFile(_req: Request, file: Express.Multer.File & Partial<StagedPart>, cb: (error: Error | null) => void): void {
    if (!file.key) {
      cb(null);
      return;
    }
    removeObjects(this.storage, [file.key]).then(
      () => cb(null),
      () => cb(null),
    );
  }
}

/** Parses a multipart body: file parts under `documents`, text fields as given. */
export function multipartDocuments(
  storage: Storage,
  limits: { maxFileBytes: number; maxReviewDocuments: number; maxReviewBytes: number },
) {
  const parse = multer({
    storage: new StagingStorage(storage, limits.maxFileBytes, limits.maxReviewBytes),
    // A plain filename="…" parameter is UTF-8, as every client sends it (RFC 7578 §4.2); busboy's default,
    // Latin-1, turned "résumé.pdf" into "rÃ©sumÃ©.pdf". `filename*=UTF-8''…` is decoded as it says.
    defParamCharset: 'utf8',
    limits: {
      files: limits.maxReviewDocuments,
      fields: 20,
      fieldSize: 64 * 1024,
      parts: limits.maxReviewDocuments + 20,
    },
  }).array('documents', limits.maxReviewDocuments);
  return (req: Request, res: Parameters<typeof parse>[1]): Promise<void> =>
    new Promise((resolve, reject) => {
      parse(req, res, (err: unknown) => (err ? reject(multerToApiError(err)) : resolve()));
    });
}

function multerToApiError(err: unknown): unknown {
  if (!(err instanceof MulterError)) {
    if (
      err instanceof Error &&
      /Unexpected end of form|Malformed part header|Multipart: Boundary not found/i.test(err.message)
    ) {
      return new ApiError('invalid_request', 400, 'The multipart body is malformed.');
    }
    return err;
  }
  switch (err.code) {
    case 'LIMIT_FILE_COUNT':
      return ApiError.of('too_many_documents', 'More documents than a review may hold.');
    case 'LIMIT_UNEXPECTED_FILE':
      return new ApiError(
        'invalid_request',
        422,
        `Invalid request: ${err.field ?? 'a file part'}: files go in the "documents" field.`,
        { param: err.field },
      );
    case 'LIMIT_FILE_SIZE':
      return ApiError.of('document_too_large', 'A document is larger than the per-file limit.');
    case 'LIMIT_FIELD_VALUE':
      // A part with filename="" is a text field to busboy: a file sent without its name.
      if (err.field === 'documents') return missingFileName();
      return new ApiError(
        'invalid_request',
        422,
        `Invalid request: ${err.field ?? 'a field'}: longer than a text field may be.`,
        { param: err.field },
      );
    default:
      return new ApiError(
        'invalid_request',
        422,
        `Invalid request: ${err.field ? `${err.field}: ` : ''}${err.message}.`,
        { param: err.field },
      );
  }
}

export function missingFileName(): ApiError {
  return new ApiError(
    'invalid_request',
    422,
    'Invalid request: documents: a file part needs a file name (filename="…" in its Content-Disposition).',
    { param: 'documents' },
  );
}

/**
 * The first staged file name a source URL's `filename` could not be either (over 500 characters, or NUL
 * sent as `filename*=UTF-8''a%00.pdf`, which the database cannot hold), as the error naming it; undefined
 * when every name is one.
 */
export function refusedFileName(parts: readonly { filename: string }[]): ApiError | undefined {
  for (const [index, part] of parts.entries()) {
    const parsed = FileNameSchema.safeParse(part.filename);
    // Named as a source URL's would be: the part's file name is its `filename`.
    if (!parsed.success)
      return new ApiError(
        'invalid_request',
        422,
        `Invalid request: documents[${index}].filename (its file name): ${parsed.error.issues[0]!.message}.`,
        { param: `documents[${index}].filename` },
      );
  }
  return undefined;
}

/** The staged parts multer left on the request, in upload order. */
export function stagedParts(req: Request): (StagedPart & { filename: string; declaredType: string })[] {
  const files = (req.files ?? []) as (Express.Multer.File & StagedPart)[];
  return files.map((f) => ({
    key: f.key,
    size: f.size,
    sha256: f.sha256,
    filename: f.originalname,
    declaredType: f.mimetype,
  }));
}

/**
 * The uploads one request staged, and who must remove them: the request, when it ends without handing
 * them to a review's workflow (refused, replayed, failed before the workflow saw them), or the workflow,
 * once handed over, which keeps them or removes them whatever becomes of the request. The routes settle
 * it in one place, when the handler ends (`withStagedUploads`).
 */
export class StagedUploads {
  private readonly keys: string[] = [];
  private handedOver = false;

  constructor(private readonly storage: Storage) {}

  add(keys: readonly string[]): void {
    this.keys.push(...keys);
  }

  /** From here the workflow owns them. */
  handOver(): void {
    this.handedOver = true;
  }

  /**
   * Removes them unless handed over; best effort: an upload left behind expires with the bucket's rule for
   * transient ones.
   */
  async settle(): Promise<void> {
    if (this.handedOver || this.keys.length === 0) return;
    await removeObjects(this.storage, this.keys).catch(() => {});
  }
}
