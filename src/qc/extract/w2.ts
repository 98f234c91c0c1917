// The W-2 (Wage and Tax Statement): tax year, employer (box c), employee (box e), wages (box 1) and Medicare
// wages (box 5). The form prints each box's caption above its value.
import type { Located, W2Fields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { amount, labelled, onLine, unionOf, withoutUndefined } from './labels.js';
import { isCaption, organisationName } from './values.js';

/** Part of a name (box e prints first name and last name apart): capitalised words, no caption. */
function nameWords(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').trim();
  return /^[A-Z][A-Za-z.'’-]*(?: [A-Z][A-Za-z.'’-]*){0,3}$/.test(t) && !isCaption(t) ? t : undefined;
}

export function extractW2(pages: readonly PageLayout[]): W2Fields {
  const below = { place: 'below', maxDy: 18 } as const;
  const filled = {
    employer: labelled(pages, /(?:c\s+)?employer(?:'s|’s)? name(?:, address,? and zip code)?/, organisationName, below),
    employee: employee(pages),
    wages: labelled(pages, /(?:1\s+)?wages, tips, other comp(?:ensation|\.)?/, amount, below),
    medicareWages: labelled(pages, /(?:5\s+)?medicare wages and tips/, amount, below),
  };
  // The form prints its year in its title; on a blank form that year is no value written on it.
  const blank = Object.values(filled).every((v) => v === undefined);
  return withoutUndefined({ taxYear: blank ? undefined : taxYear(pages), ...filled });
}

/** "Form W-2 Wage and Tax Statement 2025", or a "Tax Year 2025" line. */
function taxYear(pages: readonly PageLayout[]): Located<number> | undefined {
  const found =
    onLine(pages, /\bW-2\b.{0,120}?\b((?:19|20)\d{2})\b/i) ?? onLine(pages, /\btax year:?\s*((?:19|20)\d{2})\b/i);
  return found ? { value: Number(found.match[1]), page: found.page, box: found.box } : undefined;
}

/** Box e: "Employee's first name and initial" and "Last name" side by side, or one "Employee's name" box. */
function employee(pages: readonly PageLayout[]): Located<string> | undefined {
  const below = { place: 'below', maxDy: 18 } as const;
  const first = labelled(pages, /(?:e\s+)?employee(?:'s|’s)? (?:first )?name(?: and initial)?/, nameWords, below);
  const last = labelled(pages, /last name/, nameWords, below);
  if (first && last && first.page === last.page)
    return withoutUndefined({
      value: `${first.value} ${last.value}`,
      page: first.page,
      box: unionOf(first.box, last.box),
    });
  return first;
}
