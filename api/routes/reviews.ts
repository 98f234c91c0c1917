// /v1/reviews: create (update-with-start of the review workflow) and read (the Postgres read model).
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError, WorkflowUpdateStage, type Client, type WorkflowUpdateHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import type { Config } from '../../src/config.js';
import type { Sql } from '../../src/db/client.js';
import { currentRelease } from '../../src/db/releases.js';
import { getReview, getReviewRecord, listReviews, type ReviewRecord } from '../../src/db/reviews.js';
import { AddDocumentsJsonSchema, type AddDocumentsResult } from '../../src/reviews/add-documents.js';
import { decodeCursor, encodeCursor, InvalidCursorError } from '../../src/reviews/cursor.js';
import { REPORT_URL_LIFETIME_SECONDS, type Report } from '../../src/reviews/report.js';
import { objectExists, presignDownload, removeObjects, type Storage } from '../../src/storage/minio.js';
import type { StagedFile } from '../../src/ingest/package.js';
import {
  CreateReviewJsonSchema,
  CreateReviewMultipartFieldsSchema,
  MetadataSchema,
  type CreateReviewJson,
  type DocumentSource,
  type Review,
  type ReviewStatus,
} from '../../src/reviews/review.js';
import { addDocumentsUpdate, createReviewUpdate, type ReviewWorkflowInput } from '../../workflows/messages.js';
import type { InternalState } from '../../src/reviews/states.js';
import type { reviewWorkflow } from '../../workflows/review.js';
import {
  InternalStateKey,
  OrgIdKey,
  ReferenceIdKey,
  ReviewStatusKey,
  ReviewTypeKey,
  SandboxKey,
} from '../../workflows/search-attributes.js';
import { caller, type Caller } from '../auth.js';
import { beginIdempotent, fingerprint, idempotencyKey } from '../idempotency.js';
import { completeIdempotencyKey, releaseIdempotencyKey } from '../../src/db/idempotency.js';
import { ERROR_CATALOG, isErrorCode, type FixedStatusCode } from '../../src/errors/catalog.js';
import { ApiError } from '../errors.js';
import { offTheClock } from '../deadline.js';
import { missingFileName, multipartDocuments, stagedParts, unstorableFileName } from '../uploads.js';
import { invalidRequest, uuidPathDetail } from '../validation.js';
import { methodNotAllowed } from './method-not-allowed.js';

export interface ReviewRoutesDeps {
  config: Config;
  sql: Sql;
  storage: Storage;
  temporal: Client;
}

const ListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).optional(),
});

const reviewIdParam = z.uuid();

/** Validates `:review_id`; a malformed one gets the 422 `detail` body of the interface. */
export const requireReviewId: RequestHandler = (req, res, next) => {
  const raw = String(req.params.review_id);
  if (!reviewIdParam.safeParse(raw).success) {
    res.status(422).json(uuidPathDetail('review_id', raw));
    return;
  }
  next();
};

/**
 * The result of an update a worker has accepted: the deadline (api/deadline.ts) covered reaching Temporal
 * and a worker; ingest (fetching source URLs, unpacking, storing) runs under its own limits, which a big
 * package or a slow source may need.
 */
function ingested<T>(res: Response, update: WorkflowUpdateHandle<T>): Promise<T> {
  return offTheClock(res, () => update.result());
}

/**
 * A JSON body whose one fault is that it has no documents (none, null or an empty list): `document_required`
 * (400), as the interface says, rather than the schema's invalid_request. Any other fault is named first.
 */
function onlyDocumentsMissing(body: unknown, error: z.ZodError): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const documents = (body as { documents?: unknown }).documents;
  const missing = documents === undefined || documents === null || (Array.isArray(documents) && documents.length === 0);
  return missing && error.issues.every((i) => i.path.length === 1 && i.path[0] === 'documents');
}

export function reviewRoutes({ config, sql, storage, temporal }: ReviewRoutesDeps): Router {
  const router = Router();
  const upload = multipartDocuments(storage, config.limits);

  /** The create request's fields and staged uploads, from either body type; validation errors as the spec says. */
  async function createInput(
    req: Request,
    res: Response,
  ): Promise<{ fields: CreateFields; files: StagedFile[]; sources: DocumentSource[]; fingerprinted: unknown }> {
    if (req.is('multipart/form-data')) {
      const { parts, files } = await uploadedFiles(req, res);
      try {
        const parsed = CreateReviewMultipartFieldsSchema.safeParse(req.body ?? {});
        if (!parsed.success) throw invalidRequest(parsed.error);
        const metadata = parsed.data.metadata === undefined ? undefined : parseMetadata(parsed.data.metadata);
        if (files.length === 0) throw ApiError.of('document_required', 'Supply at least one document as a "documents" file part.');
        return {
          fields: { ...parsed.data, metadata },
          files,
          sources: [],
          fingerprinted: parts.map((p) => ({ filename: p.filename, sha256: p.sha256 })),
        };
      } catch (err) {
        await removeObjects(storage, files.map((f) => f.key));
        throw err;
      }
    }
    if (req.is('application/json')) {
      const parsed = CreateReviewJsonSchema.safeParse(req.body);
      if (!parsed.success) {
        if (onlyDocumentsMissing(req.body, parsed.error)) throw ApiError.of('document_required', 'Supply at least one document.');
        if (parsed.error.issues.some((i) => i.path[0] === 'metadata')) throw malformedMetadata();
        throw invalidRequest(parsed.error);
      }
      const { documents, ...fields } = parsed.data;
      return { fields, files: [], sources: documents, fingerprinted: documents };
    }
    throw new ApiError('invalid_request', 400, 'Send the review as application/json or multipart/form-data.');
  }

  /** Multipart parts streamed to staging, as the workflow's staged files. */
  async function uploadedFiles(req: Request, res: Response) {
    await offTheClock(res, () => upload(req, res));
    const parts = stagedParts(req);
    const refused = unstorableFileName(parts) ?? (req.body && typeof req.body === 'object' && 'documents' in req.body ? missingFileName() : undefined);
    if (refused) {
      await removeObjects(storage, parts.map((p) => p.key));
      throw refused;
    }
    const files: StagedFile[] = parts.map((p) => ({ key: p.key, filename: p.filename, declaredType: p.declaredType || null, source: 'upload' }));
    return { parts, files };
  }

  /** The add-documents body: only `documents`, as file parts or as signed source URLs. */
  async function addInput(req: Request, res: Response): Promise<{ files: StagedFile[]; sources: DocumentSource[] }> {
    if (req.is('multipart/form-data')) {
      const { files } = await uploadedFiles(req, res);
      try {
        const fields = z.strictObject({}).safeParse(req.body ?? {});
        if (!fields.success) throw invalidRequest(fields.error);
        if (files.length === 0) throw ApiError.of('document_required', 'Supply at least one document as a "documents" file part.');
        return { files, sources: [] };
      } catch (err) {
        await removeObjects(storage, files.map((f) => f.key));
        throw err;
      }
    }
    if (req.is('application/json')) {
      const parsed = AddDocumentsJsonSchema.safeParse(req.body);
      if (!parsed.success) {
        if (onlyDocumentsMissing(req.body, parsed.error)) throw ApiError.of('document_required', 'Supply at least one document.');
        throw invalidRequest(parsed.error);
      }
      return { files: [], sources: parsed.data.documents };
    }
    throw new ApiError('invalid_request', 400, 'Send the documents as application/json or multipart/form-data.');
  }

  router
    .route('/reviews')
    .post(async (req, res) => {
      const who = caller(res);
      const { fields, files, sources, fingerprinted } = await createInput(req, res);
      let claimedKey: string | undefined;
      try {
        const reviewType = fields.review_type ?? 'mortgage_v1';
        let reviewId: string = randomUUID();
        const key = idempotencyKey(req);
        if (key !== undefined) {
          const outcome = await beginIdempotent(sql, {
            organizationId: who.organizationId,
            key,
            fingerprint: fingerprint({ ...fields, review_type: reviewType, sources: fingerprinted, sandbox: who.sandbox }),
            newReviewId: reviewId,
            ttlHours: config.limits.idempotencyTtlHours,
          });
          // An earlier create with this key is the answer: 200 with its body, this request's uploads unused.
          const replay = async (body: string) => {
            await removeObjects(storage, files.map((f) => f.key));
            res.status(200).type('application/json').send(body);
          };
          if (outcome.kind === 'replay') return await replay(outcome.body);
          claimedKey = key;
          reviewId = outcome.reviewId;
          // The request that claimed this key died before answering: if its create went through, its
          // review is the answer (as it is now: the original body was never stored).
          const existing = outcome.resumed ? await getReview(sql, who.organizationId, reviewId) : null;
          if (existing) {
            const body = JSON.stringify(existing);
            await completeIdempotencyKey(sql, who.organizationId, key, body);
            return await replay(body);
          }
        }
        const review = await startReview(res, who, reviewId, reviewType, fields, files, sources);
        // One serialisation, sent now and stored for replays: byte for byte the same.
        const body = JSON.stringify(review);
        if (claimedKey !== undefined) await completeIdempotencyKey(sql, who.organizationId, claimedKey, body);
        res.status(201).type('application/json').send(body);
      } catch (err) {
        if (claimedKey !== undefined) await releaseIdempotencyKey(sql, who.organizationId, claimedKey);
        // The workflow removes what it was given; uploads it never saw are ours to remove.
        if (!(err instanceof StartedError)) await removeObjects(storage, files.map((f) => f.key)).catch(() => {});
        throw err instanceof StartedError ? err.cause : err;
      }
    })
    .get(async (req, res) => {
      const who = caller(res);
      const query = ListQuerySchema.safeParse(req.query);
      if (!query.success) throw invalidRequest(query.error);
      let after;
      if (query.data.cursor !== undefined) {
        try {
          after = decodeCursor(query.data.cursor, who.organizationId, config.secrets.server);
        } catch (err) {
          if (err instanceof InvalidCursorError) throw new ApiError('invalid_request', 422, 'Invalid request: cursor: not a cursor this API issued; pass next_cursor back verbatim.');
          throw err;
        }
      }
      const page = await listReviews(sql, who.organizationId, query.data.limit, after);
      const last = page.reviews.at(-1);
      res.json({
        data: page.reviews,
        next_cursor:
          page.hasMore && last
            ? encodeCursor(who.organizationId, { createdAt: last.created_at, id: last.review_id }, config.secrets.server)
            : null,
      });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/reviews/:review_id')
    .get(requireReviewId, async (req, res) => {
      const review = await getReview(sql, caller(res).organizationId, String(req.params.review_id));
      if (!review) throw ApiError.of('review_not_found', 'No such review.');
      res.json(review);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/reviews/:review_id/report')
    .get(requireReviewId, async (req, res) => {
      const review = await getReview(sql, caller(res).organizationId, String(req.params.review_id));
      // DECISIONS 24: a key reads the reports of its own mode's reviews only, as of its own organization's.
      if (!review || review.sandbox !== caller(res).sandbox) throw ApiError.of('review_not_found', 'No such review.');
      if (review.status === 'failed') throw ApiError.of('review_failed', 'The review failed; no report will ever exist.');
      if (review.status !== 'completed') {
        throw new ApiError('report_not_ready', 404, 'The review has not finished; keep polling.');
      }
      const release = await currentRelease(sql, review.review_id);
      // A released review whose render is missing is not served from any other render: stop polling.
      if (!release || !(await objectExists(storage, release.reportObjectKey))) {
        throw new ApiError('report_not_ready', 409, 'The report render for this release is unavailable; contact support.');
      }
      const download = await presignDownload(storage, release.reportObjectKey, REPORT_URL_LIFETIME_SECONDS);
      const report: Report = {
        review_id: review.review_id,
        status: 'completed',
        outcome: release.outcome,
        summary: release.summary,
        issues: release.issues,
        report_pdf_url: download.url,
        report_pdf_expires_at: download.expiresAt.toISOString(),
        sandbox: review.sandbox,
        generated_at: release.generatedAt.toISOString(),
      };
      res.json(report);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/reviews/:review_id/documents')
    .post(requireReviewId, async (req, res) => {
      const who = caller(res);
      const record = await getReviewRecord(sql, who.organizationId, String(req.params.review_id));
      // DECISIONS 24: a sandbox key never changes a live review, nor a live key a sandbox one.
      if (!record || record.review.sandbox !== who.sandbox) throw ApiError.of('review_not_found', 'No such review.');
      if (record.review.status === 'failed') throw ApiError.of('review_failed', 'The review failed; documents can no longer be added.');
      const { files, sources } = await addInput(req, res);
      try {
        res.json(await addToReview(res, who, record, files, sources));
      } catch (err) {
        if (!(err instanceof StartedError)) await removeObjects(storage, files.map((f) => f.key)).catch(() => {});
        throw err instanceof StartedError ? err.cause : err;
      }
    })
    .all(methodNotAllowed(['POST']));

  /**
   * The add-documents update on the review's workflow. Update-with-start: the running workflow takes it,
   * and a review whose run has closed gets a new run that continues it.
   */
  async function addToReview(
    res: Response,
    who: Caller,
    { review, internalState, metadata }: ReviewRecord,
    files: StagedFile[],
    sources: DocumentSource[],
  ): Promise<AddDocumentsResult> {
    const input: ReviewWorkflowInput = { reviewId: review.review_id, organizationId: who.organizationId, sandbox: review.sandbox, resumed: { internalState } };
    const start = reviewWorkflowStart({
      input,
      taskQueue: config.temporal.taskQueue,
      conflictPolicy: 'USE_EXISTING',
      status: review.status,
      internalState,
      reviewType: review.review_type,
      referenceId: review.reference_id,
      label: review.label,
      metadata,
    });
    try {
      const update = await temporal.workflow.startUpdateWithStart(addDocumentsUpdate, {
        args: [{ files, sources }],
        startWorkflowOperation: start,
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      return await ingested(res, update);
    } catch (err) {
      throw new StartedError(rejectionToApiError(err));
    }
  }

  /** Update-with-start of the review's workflow; rejections come back as the API's errors. */
  async function startReview(
    res: Response,
    who: Caller,
    reviewId: string,
    reviewType: string,
    fields: CreateFields,
    files: StagedFile[],
    sources: DocumentSource[],
  ): Promise<Review> {
    const input: ReviewWorkflowInput = { reviewId, organizationId: who.organizationId, sandbox: who.sandbox };
    const start = reviewWorkflowStart({
      input,
      taskQueue: config.temporal.taskQueue,
      conflictPolicy: 'FAIL',
      status: 'processing',
      internalState: 'ingesting',
      reviewType,
      referenceId: fields.reference_id ?? null,
      label: fields.label ?? null,
      metadata: fields.metadata ?? null,
    });
    try {
      const update = await temporal.workflow.startUpdateWithStart(createReviewUpdate, {
        waitForStage: WorkflowUpdateStage.ACCEPTED,
        args: [
          {
            reviewType,
            label: fields.label ?? null,
            referenceId: fields.reference_id ?? null,
            metadata: fields.metadata ?? null,
            createdAt: new Date().toISOString(),
            files,
            sources,
          },
        ],
        startWorkflowOperation: start,
      });
      return await ingested(res, update);
    } catch (err) {
      throw new StartedError(rejectionToApiError(err));
    }
  }

  return router;
}

/** How a review's workflow run starts: a first run and a later one look the same to operators in the UI. */
function reviewWorkflowStart(o: {
  input: ReviewWorkflowInput;
  taskQueue: string;
  conflictPolicy: 'FAIL' | 'USE_EXISTING';
  status: ReviewStatus;
  internalState: InternalState;
  reviewType: string;
  referenceId: string | null;
  label: string | null;
  metadata: Record<string, string> | null;
}) {
  return new WithStartWorkflowOperation<typeof reviewWorkflow>('reviewWorkflow', {
    workflowId: o.input.reviewId,
    taskQueue: o.taskQueue,
    args: [o.input],
    workflowIdConflictPolicy: o.conflictPolicy,
    staticSummary: `Review ${o.referenceId ?? o.label ?? o.input.reviewId}`,
    staticDetails: `Organization \`${o.input.organizationId}\`${o.input.sandbox ? ' (sandbox)' : ''}`,
    // Operators see the integrator's metadata here; the Review object does not carry it (DECISIONS 1).
    memo: { metadata: o.metadata ?? {} },
    typedSearchAttributes: [
      { key: ReviewStatusKey, value: o.status },
      { key: InternalStateKey, value: o.internalState },
      { key: OrgIdKey, value: o.input.organizationId },
      { key: SandboxKey, value: o.input.sandbox },
      { key: ReviewTypeKey, value: o.reviewType },
      ...(o.referenceId ? [{ key: ReferenceIdKey, value: o.referenceId }] : []),
    ],
  });
}

/** A failure after the workflow was asked to start: it owns the uploads from then on. */
class StartedError extends Error {
  constructor(override readonly cause: unknown) {
    super('review start failed');
  }
}

type CreateFields = Omit<CreateReviewJson, 'documents'>;

function malformedMetadata(): ApiError {
  return new ApiError('invalid_request', 400, 'Invalid request: metadata: must be a JSON object whose values are strings.');
}

function parseMetadata(raw: string): Record<string, string> | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw malformedMetadata();
  }
  const parsed = MetadataSchema.nullable().safeParse(value);
  if (!parsed.success) throw malformedMetadata();
  return parsed.data;
}

function rejectionToApiError(err: unknown): unknown {
  // A resumed Idempotency-Key whose review's workflow exists but has not written the review yet.
  if (err instanceof WorkflowExecutionAlreadyStartedError) {
    return new ApiError('service_unavailable', 503, 'This review is still being created; retry shortly with the same Idempotency-Key.');
  }
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const code = err.cause.type;
    // Refusals of a field (a source URL that cannot be fetched) are 422s naming the field.
    if (code === 'invalid_request') return new ApiError('invalid_request', 422, err.cause.message);
    if (isErrorCode(code) && code !== 'internal_error' && typeof ERROR_CATALOG[code].status === 'number') {
      return ApiError.of(code as FixedStatusCode, err.cause.message);
    }
  }
  return err;
}
