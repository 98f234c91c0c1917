// Every rule of the mortgage_v1 catalog, by family, and running them over a loan file. A test checks
// that each catalog code has exactly one rule here.
import type { Logger } from '../../telemetry/logger.js';
import { processLog } from '../../telemetry/pino-logger.js';
import { CATALOG, findingOf, type Rule, type RuleContext } from '../catalog.js';
import type { LoanFile } from '../fields.js';
import type { Finding } from '../finding.js';
import { rules as apr } from './apr.js';
import { rules as collateral } from './collateral.js';
import { rules as consistency } from './consistency.js';
import { rules as disclosureTiming } from './disclosure-timing.js';
import { rules as documentation } from './documentation.js';
import { rules as income } from './income.js';
import { rules as note } from './note.js';
import { rules as pointsAndFees } from './points-and-fees.js';
import { rules as tolerance } from './tolerance.js';
import { errorMessage } from '../error-message.js';

export const RULES: readonly Rule[] = [
  ...documentation,
  ...consistency,
  ...apr,
  ...disclosureTiming,
  ...tolerance,
  ...note,
  ...income,
  ...pointsAndFees,
  ...collateral,
];

/**
 * Findings in catalog order. A rule that throws on odd data is a bug: it is logged and skipped, so the
 * other rules still report and the review is not failed by one rule.
 */
export function runRules(loan: LoanFile, context: RuleContext, log: Logger = processLog): Finding[] {
  return distinctKeys(findingsOf(loan, context, log));
}

/**
 * A finding's key is its identity (the issue's `id`, its working-document fields): two findings never
 * share one. Rules give each of several hits its own subject; should two hits still meet (two documents
 * of one file name in different folders of an archive), the later ones are numbered `~2`, `~3` in order.
 */
export function distinctKeys(findings: readonly Finding[]): Finding[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const n = (seen.get(f.key) ?? 0) + 1;
    seen.set(f.key, n);
    return n === 1 ? f : { ...f, key: `${f.key}~${n}` };
  });
}

function findingsOf(loan: LoanFile, context: RuleContext, log: Logger): Finding[] {
  const order = new Map(CATALOG.map((r, i) => [r.code, i]));
  return [...RULES]
    .sort((a, b) => (order.get(a.code) ?? 0) - (order.get(b.code) ?? 0))
    .flatMap((rule) => {
      try {
        return rule.check(loan, context).map((hit) => findingOf(rule.code, hit));
      } catch (err) {
        log.error(`rule ${rule.code} failed and was skipped: ${errorMessage(err)}`, { rule: rule.code });
        return [];
      }
    });
}
