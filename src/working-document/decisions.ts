// Dispositions: the integrator's decisions on findings, read from a returned working document
// (decisions.md, "Working document", "Dispositions", "Disposition effects"). Judging them is pure: which are
// applied, skipped or failed, and why; the decisions
// that stand then shape every later release (cleared findings left out, disputed ones marked).
import { z } from 'zod';
import type { Finding } from '../qc/finding.js';
import { findingFieldNames } from '../report/render.js';
import { DISPOSITION_DECISIONS, UNRECOGNISED_DECISION, type Disposition } from '../reviews/add-documents.js';
import type { Dispute } from '../reviews/pipeline.js';

export type Decision = (typeof DISPOSITION_DECISIONS)[number];

/** A decision field's value as a PDF viewer may leave it: empty (no decision) or one of the choices. */
const DecisionFieldSchema = z.union([z.literal(''), z.enum(DISPOSITION_DECISIONS)]);

/** The decision standing on a finding (the last one applied). */
export interface StandingDecision {
  findingKey: string;
  decision: Decision;
  comment: string | null;
  /** Who sent it, in words (the API key and request); null for decisions recorded before senders were. */
  sentBy: string | null;
  /** ISO time it was recorded. */
  decidedAt: string;
}

/** A disposition as judged, with what is stored alongside the answer. */
export interface JudgedDisposition extends Disposition {
  comment: string | null;
  /** The curing document's file name, for an applied cure_attached. */
  cureDocument: string | null;
}

export interface DispositionInput {
  /** The working document's field values, by field name. */
  fields: ReadonlyMap<string, string>;
  /** The findings of the release the working document was issued for. */
  answered: readonly Finding[];
  /** The findings of the review's current release (the same list when the document answers it). */
  current: readonly Finding[];
  standing: readonly StandingDecision[];
  /** File names of the documents uploaded in the same request (a cure document must be among them). */
  uploaded: readonly string[];
}

const DECISION_FIELD = /^finding\.(.+)\.decision$/;

export function judgeDispositions(input: DispositionInput): JudgedDisposition[] {
  const answered = new Map(input.answered.map((f) => [f.key, f]));
  const current = new Set(input.current.map((f) => f.key));
  const standing = new Map(input.standing.map((s) => [s.findingKey, s.decision]));
  const uploaded = new Set(input.uploaded.map(baseName));
  const out: JudgedDisposition[] = [];

  for (const [name, raw] of input.fields) {
    const key = DECISION_FIELD.exec(name)?.[1];
    if (key === undefined) continue;
    const names = findingFieldNames(key);
    const comment = (input.fields.get(names.comment) ?? '').trim() || null;
    const cure = (input.fields.get(names.cureDocument) ?? '').trim() || null;
    const finding = answered.get(key);
    const code = finding?.code ?? key.split(':')[0]!;
    const entry = (
      decision: Disposition['decision'],
      outcome: Disposition['outcome'],
      detail: string,
      cureDocument: string | null = null,
    ): JudgedDisposition => ({
      finding: code,
      finding_id: key,
      decision,
      outcome,
      detail,
      comment,
      cureDocument,
    });

    const parsed = DecisionFieldSchema.safeParse(raw.trim());
    if (!parsed.success) {
      out.push(
        entry(
          UNRECOGNISED_DECISION,
          'failed',
          `The decision "${raw}" is not one of ${DISPOSITION_DECISIONS.join(', ')}.`,
        ),
      );
      continue;
    }
    const decision = parsed.data;
    // An empty decision is no decision: it is not listed at all (decisions.md, "Dispositions").
    if (decision === '') continue;
    if (!finding) {
      out.push(
        entry(decision, 'failed', `The working document names a finding (${key}) that its release does not have.`),
      );
      continue;
    }
    if (!current.has(key) && standing.get(key) !== decision) {
      out.push(
        entry(
          decision,
          'failed',
          `${code} is no longer a finding of this review: the working document answers a superseded release.`,
        ),
      );
      continue;
    }
    if (standing.get(key) === decision) {
      out.push(entry(decision, 'skipped', `${code} is already marked ${decision}.`));
      continue;
    }
    if (decision === 'cure_attached') {
      if (cure === null) {
        out.push(
          entry(
            decision,
            'skipped',
            `No cure document is named for ${code}: fill in the cure document field with the file ` +
              `name of the document uploaded with it.`,
          ),
        );
        continue;
      }
      if (!uploaded.has(baseName(cure))) {
        out.push(
          entry(decision, 'skipped', `The cure document "${cure}" named for ${code} was not uploaded in this request.`),
        );
        continue;
      }
      out.push(entry(decision, 'applied', `${code} will be re-checked against ${cure} in the re-assessment.`, cure));
      continue;
    }
    out.push(
      entry(
        decision,
        'applied',
        decision === 'cleared'
          ? `${code} is cleared and is left out of the next release.`
          : `${code} is marked disputed; the next release goes through review before it is released.`,
      ),
    );
  }
  return out;
}

/**
 * The findings of a release with the standing decisions applied: cleared ones left out, disputed ones
 * marked in their summary. Returns the disputes (such a release is held at the release gate), the first
 * MAX_DISPUTES_SHOWN of them for the operator who approves it, and how many there are.
 */
export function applyDecisions(
  findings: readonly Finding[],
  standing: readonly StandingDecision[],
): { findings: Finding[]; disputed: number; disputes: Dispute[] } {
  const byKey = new Map(standing.map((s) => [s.findingKey, s]));
  const out: Finding[] = [];
  const disputes: Dispute[] = [];
  for (const f of findings) {
    const s = byKey.get(f.key);
    if (s?.decision === 'cleared') continue;
    if (s?.decision === 'disputed') {
      disputes.push({
        findingId: f.key,
        code: f.code,
        title: f.title,
        comment: shown(s.comment),
        sentBy: s.sentBy,
        decidedAt: s.decidedAt,
      });
      out.push({ ...f, summary: `${f.summary} Disputed by the lender${s.comment ? `: ${s.comment}` : ''}.` });
      continue;
    }
    out.push(f);
  }
  return { findings: out, disputed: disputes.length, disputes: disputes.slice(0, MAX_DISPUTES_SHOWN) };
}

/**
 * Disputes an analysis hands the workflow (its history and getState hold them) and characters of each
 * comment: what an operator reads before approving, bounded whatever a working document holds.
 */
export const MAX_DISPUTES_SHOWN = 20;
const MAX_COMMENT_SHOWN = 500;

function shown(comment: string | null): string | null {
  return comment !== null && comment.length > MAX_COMMENT_SHOWN
    ? `${comment.slice(0, MAX_COMMENT_SHOWN - 1)}…`
    : comment;
}

function baseName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? name).toLowerCase();
}
