// /v1/reviews: create (update-with-start of the review workflow) and read (the Postgres read model).
import { Router, type RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import type { Config } from '../../src/config.js';
import type { Sql } from '../../src/db/client.js';
import { getReview } from '../../src/db/reviews.js';
import { CreateReviewJsonSchema, REVIEW_TYPES } from '../../src/reviews/review.js';
import { createReviewUpdate, type ReviewWorkflowInput } from '../../workflows/messages.js';
import type { reviewWorkflow } from '../../workflows/review.js';
import {
  InternalStateKey,
  OrgIdKey,
  ReferenceIdKey,
  ReviewStatusKey,
  ReviewTypeKey,
  SandboxKey,
} from '../../workflows/search-attributes.js';
import { caller } from '../auth.js';
import { ApiError, ERROR_STATUS } from '../errors.js';
import { invalidRequest, uuidPathDetail } from '../validation.js';
import { methodNotAllowed } from './method-not-allowed.js';

export interface ReviewRoutesDeps {
  config: Config;
  sql: Sql;
  temporal: Client;
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

export function reviewRoutes({ config, sql, temporal }: ReviewRoutesDeps): Router {
  const router = Router();

  router
    .route('/reviews')
    .post(async (req, res) => {
      const who = caller(res);
      if (!req.is('application/json')) {
        throw new ApiError('invalid_request', 400, 'Send the review as application/json.');
      }
      const parsed = CreateReviewJsonSchema.safeParse(req.body);
      if (!parsed.success) throw invalidRequest(parsed.error);
      const body = parsed.data;
      const reviewType = body.review_type ?? 'mortgage_v1';
      if (!(REVIEW_TYPES as readonly string[]).includes(reviewType)) {
        throw new ApiError('invalid_request', 422, `Invalid request: review_type: must be one of ${REVIEW_TYPES.join(', ')}.`);
      }
      if (!body.documents || body.documents.length === 0) {
        throw ApiError.of('document_required', 'Supply at least one document.');
      }

      const reviewId = randomUUID();
      const input: ReviewWorkflowInput = { reviewId, organizationId: who.organizationId, sandbox: who.sandbox };
      const start = new WithStartWorkflowOperation<typeof reviewWorkflow>('reviewWorkflow', {
        workflowId: reviewId,
        taskQueue: config.temporal.taskQueue,
        args: [input],
        workflowIdConflictPolicy: 'FAIL',
        staticSummary: `Review ${body.reference_id ?? body.label ?? reviewId}`,
        staticDetails: `Organization \`${who.organizationId}\`${who.sandbox ? ' (sandbox)' : ''}`,
        // Operators see the integrator's metadata here; the Review object does not carry it (DECISIONS 1).
        memo: { metadata: body.metadata ?? {} },
        typedSearchAttributes: [
          { key: ReviewStatusKey, value: 'processing' },
          { key: InternalStateKey, value: 'ingesting' },
          { key: OrgIdKey, value: who.organizationId },
          { key: SandboxKey, value: who.sandbox },
          { key: ReviewTypeKey, value: reviewType },
          ...(body.reference_id ? [{ key: ReferenceIdKey, value: body.reference_id }] : []),
        ],
      });
      try {
        const review = await temporal.workflow.executeUpdateWithStart(createReviewUpdate, {
          args: [
            {
              reviewType,
              label: body.label ?? null,
              referenceId: body.reference_id ?? null,
              metadata: body.metadata ?? null,
              createdAt: new Date().toISOString(),
            },
          ],
          startWorkflowOperation: start,
        });
        res.status(201).json(review);
      } catch (err) {
        throw rejectionToApiError(err);
      }
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/reviews/:review_id')
    .get(requireReviewId, async (req, res) => {
      const review = await getReview(sql, caller(res).organizationId, String(req.params.review_id));
      if (!review) throw ApiError.of('review_not_found', 'No such review.');
      res.json(review);
    })
    .all(methodNotAllowed(['GET']));

  return router;
}

function rejectionToApiError(err: unknown): unknown {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const code = err.cause.type;
    if (code && code !== 'internal_error' && code in ERROR_STATUS) {
      return ApiError.of(code as keyof typeof ERROR_STATUS, err.cause.message);
    }
  }
  return err;
}
