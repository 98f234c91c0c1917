// /v1/reviews: HTTP to calls. Create and add documents parse the body (multipart or JSON) and hand it to
// the review's workflow (review-workflow.ts); reads come from the Postgres read model.
import { requestTrace } from '../request-tracing.js';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { WorkflowUpdateHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../src/config.js';
import type { Sql } from '../../src/db/client.js';
import { abandonIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../../src/db/idempotency.js';
import { currentRelease } from '../../src/db/releases.js';
import { getReview, getReviewRecord, listReviews } from '../../src/db/reviews.js';
import type { StagedFile } from '../../src/reviews/staged-file.js';
import { AddDocumentsJsonSchema } from '../../src/reviews/add-documents.js';
import { nextCursor, pageAfter } from '../list-cursor.js';
import { REPORT_URL_LIFETIME_SECONDS, type Report } from '../../src/reviews/report.js';
import {
  CreateReviewJsonSchema,
  CreateReviewMultipartFieldsSchema,
  MetadataSchema,
  ReviewListQuerySchema,
  type DocumentSource,
} from '../../src/reviews/review.js';
import { objectExists, presignDownload, type Storage } from '../../src/storage/minio.js';
import { caller } from '../auth.js';
import { offTheClock } from '../deadline.js';
import { ApiError } from '../errors.js';
import { beginIdempotent, fingerprint, idempotencyKey } from '../idempotency.js';
import { missingFileName, multipartDocuments, stagedParts, refusedFileName, StagedUploads } from '../uploads.js';
import { invalidRequest, uuidPathDetail } from '../validation.js';
import { methodNotAllowed } from './method-not-allowed.js';
import type { CreateFields, ReviewWorkflows } from '../review-workflow.js';
import { requestIdOf } from '../request-id.js';

export interface ReviewRoutesDeps {
  config: Config;
  sql: Sql;
  storage: Storage;
  workflows: ReviewWorkflows;
}

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
 * A JSON body whose one fault is that it has no documents (none, null or an empty list): `document_required`
 * (400), as the interface says, rather than the schema's invalid_request. Any other fault is named first.
 */
function onlyDocumentsMissing(body: unknown, error: z.ZodError): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const documents = (body as { documents?: unknown }).documents;
  const missing = documents === undefined || documents === null || (Array.isArray(documents) && documents.length === 0);
  return missing && error.issues.every((i) => i.path.length === 1 && i.path[0] === 'documents');
}

export function reviewRoutes({ config, sql, storage, workflows }: ReviewRoutesDeps): Router {
  const router = Router();
  const upload = multipartDocuments(storage, config.limits);

  /**
   * Runs a route whose request may stage uploads: whatever it staged and did not hand to a workflow is
   * removed when it ends, however it ends (the one place uploads are cleaned up).
   */
  const withStagedUploads =
    (handler: (req: Request, res: Response, staged: StagedUploads) => Promise<void>): RequestHandler =>
    async (req, res) => {
      const staged = new StagedUploads(storage);
      try {
        await handler(req, res, staged);
      } finally {
        await staged.settle();
      }
    };

  /** The create request's fields and staged uploads, from either body type; validation errors as the spec says. */
  async function createInput(
    req: Request,
    res: Response,
    staged: StagedUploads,
  ): Promise<{ fields: CreateFields; files: StagedFile[]; sources: DocumentSource[]; fingerprinted: unknown }> {
    if (req.is('multipart/form-data')) {
      const { parts, files } = await uploadedFiles(req, res, staged);
      const parsed = CreateReviewMultipartFieldsSchema.safeParse(req.body ?? {});
      if (!parsed.success) throw invalidRequest(parsed.error);
      const metadata = parsed.data.metadata === undefined ? undefined : parseMetadata(parsed.data.metadata);
      if (files.length === 0)
        throw ApiError.of('document_required', 'Supply at least one document as a "documents" file part.');
      return {
        fields: { ...parsed.data, metadata },
        files,
        sources: [],
        fingerprinted: parts.map((p) => ({ filename: p.filename, sha256: p.sha256 })),
      };
    }
    if (req.is('application/json')) {
      const parsed = CreateReviewJsonSchema.safeParse(req.body);
      if (!parsed.success) {
        if (onlyDocumentsMissing(req.body, parsed.error))
          throw ApiError.of('document_required', 'Supply at least one document.');
        if (parsed.error.issues.some((i) => i.path[0] === 'metadata')) throw malformedMetadata();
        throw invalidRequest(parsed.error);
      }
      const { documents, ...fields } = parsed.data;
      return { fields, files: [], sources: countedSources(documents), fingerprinted: documents };
    }
    throw new ApiError('invalid_request', 400, 'Send the review as application/json or multipart/form-data.');
  }

  /**
   * Source URLs within the documents the review may still take (`held`: what it holds already): refused
   * before any is fetched, as multipart refuses a part past the limit (each URL would otherwise be
   * fetched, up to the per-file limit, then refused).
   */
  function countedSources(sources: DocumentSource[], held = 0): DocumentSource[] {
    const max = config.limits.maxReviewDocuments;
    const room = Math.max(0, max - held);
    if (sources.length > room) {
      const holds = held > 0 ? `; this review holds ${held}, so it takes ${room} more` : '';
      throw ApiError.of(
        'too_many_documents',
        `At most ${max} documents a review${holds}; ${sources.length} source URLs were given.`,
      );
    }
    return sources;
  }

  /** Multipart parts streamed to staging, as the workflow's staged files; the request's to remove until handed over. */
  async function uploadedFiles(req: Request, res: Response, staged: StagedUploads) {
    await offTheClock(res, () => upload(req, res));
    const parts = stagedParts(req);
    staged.add(parts.map((p) => p.key));
    const refused =
      refusedFileName(parts) ??
      (req.body && typeof req.body === 'object' && 'documents' in req.body ? missingFileName() : undefined);
    if (refused) throw refused;
    const files: StagedFile[] = parts.map((p) => ({
      key: p.key,
      filename: p.filename,
      declaredType: p.declaredType || null,
      source: 'upload',
      content: { sha256: p.sha256, size: p.size },
    }));
    return { parts, files };
  }

  /**
   * The add-documents body: only `documents`, as file parts or as signed source URLs (`held`: documents the
   * review holds).
   */
  async function addInput(
    req: Request,
    res: Response,
    held: number,
    staged: StagedUploads,
  ): Promise<{ files: StagedFile[]; sources: DocumentSource[] }> {
    if (req.is('multipart/form-data')) {
      const { files } = await uploadedFiles(req, res, staged);
      const fields = z.strictObject({}).safeParse(req.body ?? {});
      if (!fields.success) throw invalidRequest(fields.error);
      if (files.length === 0)
        throw ApiError.of('document_required', 'Supply at least one document as a "documents" file part.');
      return { files, sources: [] };
    }
    if (req.is('application/json')) {
      const parsed = AddDocumentsJsonSchema.safeParse(req.body);
      if (!parsed.success) {
        if (onlyDocumentsMissing(req.body, parsed.error))
          throw ApiError.of('document_required', 'Supply at least one document.');
        throw invalidRequest(parsed.error);
      }
      return { files: [], sources: countedSources(parsed.data.documents, held) };
    }
    throw new ApiError('invalid_request', 400, 'Send the documents as application/json or multipart/form-data.');
  }

  /**
   * Hands a create or an addition to the review's workflow and answers with its outcome: `send` starts the
   * update and resolves once the workflow has taken it, within its own bound (api/review-workflow.ts); the
   * workflow owns the uploads from then on; ingest, once taken, runs under its own limits, off the
   * request's deadline. A request the deadline answered 503 already is never sent.
   */
  async function submitted<T>(
    res: Response,
    staged: StagedUploads,
    send: () => Promise<WorkflowUpdateHandle<T>>,
  ): Promise<T> {
    if (res.headersSent) throw new ApiError('service_unavailable', 503, 'The request had no answer in time.');
    const update = await offTheClock(res, send);
    staged.handOver();
    return offTheClock(res, () => workflows.outcome(update));
  }

  router
    .route('/reviews')
    .post(
      withStagedUploads(async (req, res, staged) => {
        const who = caller(res);
        const { fields, files, sources, fingerprinted } = await createInput(req, res, staged);
        let claimedKey: string | undefined;
        try {
          const reviewType = fields.review_type ?? 'mortgage_v1';
          let reviewId: string = randomUUID();
          const key = idempotencyKey(req);
          if (key !== undefined) {
            const outcome = await beginIdempotent(sql, {
              organizationId: who.organizationId,
              key,
              fingerprint: fingerprint({
                ...fields,
                review_type: reviewType,
                sources: fingerprinted,
                sandbox: who.sandbox,
              }),
              newReviewId: reviewId,
              ttlHours: config.limits.idempotencyTtlHours,
            });
            // An earlier create with this key is the answer: 200 with its body, this request's uploads unused.
            if (outcome.kind === 'replay') return answer(res, 200, outcome.body);
            claimedKey = key;
            reviewId = outcome.reviewId;
            // The request that claimed this key died before answering: if its create went through, its
            // review is the answer (as it is now: the original body was never stored).
            const existing = outcome.resumed ? await getReview(sql, who.organizationId, reviewId) : null;
            if (existing) {
              const body = JSON.stringify(existing);
              await completeIdempotencyKey(sql, who.organizationId, key, body);
              return answer(res, 200, body);
            }
          }
          const review = await submitted(res, staged, () =>
            workflows.startCreate({
              who,
              requestId: requestIdOf(res),
              reviewId,
              reviewType,
              fields,
              files,
              sources,
              trace: requestTrace(res),
            }),
          );
          // One serialisation, sent now and stored for replays: byte for byte the same. Stored even when the
          // request's deadline answered 503 meanwhile: a retry with the key then gets the review it made.
          const body = JSON.stringify(review);
          if (claimedKey !== undefined) await completeIdempotencyKey(sql, who.organizationId, claimedKey, body);
          // The request's record in the log names the review it made (api/request-id.ts).
          res.locals.reviewId = review.review_id;
          answer(res, 201, body);
        } catch (err) {
          if (claimedKey !== undefined) {
            // A refusal is final and not remembered. Any other failure may have left a review started: the
            // key keeps its review id, and a retry with it goes on with that review at once.
            if (err instanceof ApiError && err.status < 500)
              await releaseIdempotencyKey(sql, who.organizationId, claimedKey);
            else await abandonIdempotencyKey(sql, who.organizationId, claimedKey).catch(() => {});
          }
          throw err;
        }
      }),
    )
    .get(async (req, res) => {
      const who = caller(res);
      const query = ReviewListQuerySchema.safeParse(req.query);
      if (!query.success) throw invalidRequest(query.error);
      const { limit, cursor, reference_id, status, created_after, created_before } = query.data;
      const after = pageAfter(cursor, who.organizationId, config, 'review');
      const page = await listReviews(sql, who.organizationId, limit, after, {
        referenceId: reference_id,
        status,
        createdAfter: created_after,
        createdBefore: created_before,
      });
      const last = page.reviews.at(-1);
      const position = last && { createdAt: last.created_at, id: last.review_id };
      res.json({
        data: page.reviews,
        next_cursor: nextCursor(page.hasMore, position, who.organizationId, config, 'review'),
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
    .delete(requireReviewId, async (req, res) => {
      const who = caller(res);
      const record = await getReviewRecord(sql, who.organizationId, String(req.params.review_id));
      // A key deletes its own mode's reviews only, as it reads their reports (decisions.md, "Modes").
      if (!record || record.review.sandbox !== who.sandbox) throw ApiError.of('review_not_found', 'No such review.');
      // Off the clock: the deletion waits for work under way (an analysis, a render) to stop first.
      await offTheClock(res, () => workflows.delete(who, record));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'DELETE']));

  router
    .route('/reviews/:review_id/report')
    .get(requireReviewId, async (req, res) => {
      const review = await getReview(sql, caller(res).organizationId, String(req.params.review_id));
      // decisions.md, "Modes": a key reads the reports of its own mode's reviews only, as of its own organization's.
      if (!review || review.sandbox !== caller(res).sandbox) throw ApiError.of('review_not_found', 'No such review.');
      if (review.status === 'failed')
        throw ApiError.of('review_failed', 'The review failed; no report will ever exist.');
      if (review.status !== 'completed') {
        throw new ApiError('report_not_ready', 404, 'The review has not finished; keep polling.');
      }
      const release = await currentRelease(sql, review.review_id);
      // A released review whose render is missing is not served from any other render: stop polling.
      if (!release || !(await objectExists(storage, release.reportObjectKey))) {
        throw new ApiError(
          'report_not_ready',
          409,
          'The report render for this release is unavailable; contact support.',
        );
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
    .post(
      requireReviewId,
      withStagedUploads(async (req, res, staged) => {
        const who = caller(res);
        const record = await getReviewRecord(sql, who.organizationId, String(req.params.review_id));
        // decisions.md, "Modes": a sandbox key never changes a live review, nor a live key a sandbox one.
        if (!record || record.review.sandbox !== who.sandbox) throw ApiError.of('review_not_found', 'No such review.');
        if (record.review.status === 'failed')
          throw ApiError.of('review_failed', 'The review failed; documents can no longer be added.');
        const { files, sources } = await addInput(req, res, record.review.document_count ?? 0, staged);
        const result = await submitted(res, staged, () =>
          workflows.startAdd({ who, requestId: requestIdOf(res), record, files, sources, trace: requestTrace(res) }),
        );
        answer(res, 200, JSON.stringify(result));
      }),
    )
    .all(methodNotAllowed(['POST']));

  return router;
}

/**
 * Sends a JSON answer unless the request's deadline answered it already (503): what the handler did is
 * done all the same, and the caller finds it by its Idempotency-Key, its reference_id or the review id.
 */
function answer(res: Response, status: number, body: string): void {
  if (res.headersSent) return;
  res.status(status).type('application/json').send(body);
}

function malformedMetadata(): ApiError {
  return new ApiError(
    'invalid_request',
    400,
    'Invalid request: metadata: must be a JSON object whose values are strings.',
    { param: 'metadata' },
  );
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
