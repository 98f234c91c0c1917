// What the review workflow and its activities exchange: small records of ids and counts. Documents and
// findings stay in Postgres and MinIO; the workflow's history holds only these.

/**
 * A submission refused with an error code of the interface (document_unsupported, duplicate_reference_id,
 * …): an answer for the integrator, not a failure, so the activity returns it (nothing is retried and no
 * stack trace is logged for it) and the workflow answers the request with it.
 */
export interface Refused {
  /** `param`: the request field refused, when the code's own (the catalog's) is not the one. */
  refused: { code: string; message: string; param?: string };
}

export function isRefused<T extends object>(result: T | Refused): result is Refused {
  return 'refused' in result;
}

/** An organization's settings, read at each analysis so that an operator's change applies to the next. */
export interface ReviewPolicy {
  maxConcurrentAnalyses: number;
  releasePolicy: 'auto' | 'hold';
  awaitingDocumentsSeconds: number;
}

/**
 * A pass of the pipeline begun: the organization's policy as it stands, and whether the review holds one
 * of its analysis slots now. The transition it leads to (analysing or amending with a slot, waiting for
 * capacity without) is in the read model already.
 */
export interface PassBegun {
  policy: ReviewPolicy;
  slot: boolean;
}

/** The detail of a review waiting for an analysis slot, in the read model and in the Temporal UI. */
export function slotsInUse(limit: number): string {
  return `All ${limit} analysis slots of the organization are in use.`;
}

/** What an analysis found, in counts; its findings are stored as the draft of release `releaseId`. */
export interface AnalysisSummary {
  /** The release the findings are a draft of (chosen by the workflow before the analysis). */
  releaseId: string;
  documents: number;
  unreadable: number;
  primaryPresent: boolean;
  /** True when not one document could be read: the pipeline cannot complete (the review fails). */
  nothingReadable: boolean;
  /** Findings to release, the integrator's standing decisions applied (cleared ones left out). */
  findings: number;
  /**
   * Findings the integrator disputes: such a release goes through the release gate (decisions.md,
   * "Disposition effects").
   */
  disputed: number;
  /** The first of them, for the operator who approves the release. */
  disputes: Dispute[];
}

/** A finding the lender disputes, as the operator at the release gate sees it. */
export interface Dispute {
  findingId: string;
  code: string;
  title: string;
  /** The lender's comment (at most 500 characters shown). */
  comment: string | null;
  /** The API key and request that sent it; null for decisions recorded before senders were. */
  sentBy: string | null;
  /** ISO time the decision was recorded. */
  decidedAt: string;
}

/** A release to render or publish, by id: its findings are those of its draft. */
export interface ReleaseRef {
  reviewId: string;
  releaseId: string;
  /** ISO time of the release, chosen by the workflow: the same in the JSON, the PDF and the webhook. */
  generatedAt: string;
}
