// The W-2 (Wage and Tax Statement): tax year, employer (box c), employee (box e) and wages (box 1). The
// form prints each box's caption above its value.
import type { Located, W2Fields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { amount, labelled, onLine, plainText, withoutUndefined } from './labels.js';

export function extractW2(pages: readonly PageLayout[]): W2Fields {
  const below = { place: 'below', maxDy: 18 } as const;
  return withoutUndefined({
    taxYear: taxYear(pages),
    employer: labelled(pages, /(?:c\s+)?employer(?:'s|’s)? name(?:, address,? and zip code)?/, plainText, below),
    employee: employee(pages),
    wages: labelled(pages, /(?:1\s+)?wages, tips, other comp(?:ensation|\.)?/, amount, below),
  });
}

/** "Form W-2 Wage and Tax Statement 2025", or a "Tax Year 2025" line. */
function taxYear(pages: readonly PageLayout[]): Located<number> | undefined {
  const found = onLine(pages, /\bW-2\b.{0,120}?\b((?:19|20)\d{2})\b/i) ?? onLine(pages, /\btax year:?\s*((?:19|20)\d{2})\b/i);
  return found ? { value: Number(found.match[1]), page: found.page } : undefined;
}

/** Box e: "Employee's first name and initial" and "Last name" side by side, or one "Employee's name" box. */
function employee(pages: readonly PageLayout[]): Located<string> | undefined {
  const below = { place: 'below', maxDy: 18 } as const;
  const first = labelled(pages, /(?:e\s+)?employee(?:'s|’s)? (?:first )?name(?: and initial)?/, plainText, below);
  const last = labelled(pages, /last name/, plainText, below);
  if (first && last && first.page === last.page) return { value: `${first.value} ${last.value}`, page: first.page };
  return first;
}
