// The loan application (URLA, Form 1003) from its AcroForm fields, else its printed labels. The label reading
// here (a value after a colon, right of its label, or under it) serves every other printed form of the package.
import type { z } from 'zod';
import type { Located, UrlaFields } from '../fields.js';
import type { Line, PageLayout } from '../reading/layout.js';
import type { FormField } from '../reading/pdf-text.js';
import { withoutUndefined } from './disclosure.js';
import { FormValue, findDate, parseMoney } from './values.js';

// ---- Printed labels ------------------------------------------------------------------------------------

/** Words of one label or value: runs (or OCR words) closer than this (points) belong together. */
const PHRASE_GAP = 8;
/** A value stands within a column's width right of its label; a phrase farther right is the next column's. */
const MAX_VALUE_GAP = 180;

export interface Phrase {
  text: string;
  x: number;
  end: number;
  y: number;
}

/** A line's runs grouped into phrases: a form's columns stand wider apart than the words of a value. */
export function phrasesOf(line: Line): Phrase[] {
  const phrases: Phrase[] = [];
  for (const item of line.items) {
    const last = phrases.at(-1);
    if (last && item.x - last.end <= PHRASE_GAP) {
      last.text = `${last.text} ${item.text.trim()}`;
      last.end = Math.max(last.end, item.x + item.width);
    } else phrases.push({ text: item.text.trim(), x: item.x, end: item.x + item.width, y: line.y });
  }
  return phrases;
}

export interface LabelOptions {
  /** Where the value may stand: right of the label on its line (or after its colon), under it, or either. */
  place?: 'right' | 'below' | 'either';
  /** A value run into the label's own phrase counts only after a colon ("Employer: Acme"), not after a space. */
  colonOnly?: boolean;
  /** How far below the label a value under it may stand (points). */
  maxDy?: number;
}

/**
 * The first value printed by a label (pages in order, top to bottom) that `parse` accepts: the rest of the
 * label's phrase ("Pay Date: 01/16/2026"), the phrase right of it, or the phrase under it. `label` matches
 * the start of a phrase, case-insensitively; OCR words and text runs read alike.
 */
export function labelled<T>(pages: readonly PageLayout[], label: RegExp, parse: (text: string) => T | undefined, o: LabelOptions = {}): Located<T> | undefined {
  const place = o.place ?? 'either';
  const pattern = new RegExp(String.raw`^(?:${label.source})(\s*:\s*|\s+|$)(.*)$`, 'i');
  for (const page of pages) {
    const lines = page.lines.map((line) => ({ line, phrases: phrasesOf(line) }));
    for (const [index, { phrases }] of lines.entries()) {
      for (const [p, phrase] of phrases.entries()) {
        const m = pattern.exec(phrase.text);
        if (!m) continue;
        const candidates: string[] = [];
        const rest = m[2]!.trim();
        if (place !== 'below' && rest !== '' && (!o.colonOnly || m[1]!.includes(':'))) candidates.push(rest);
        const right = phrases[p + 1];
        if (place !== 'below' && rest === '' && right && right.x - phrase.end <= MAX_VALUE_GAP) candidates.push(right.text);
        if (place !== 'right' && rest === '') {
          const under = lines
            .slice(index + 1)
            .filter(({ line }) => phrase.y - line.y <= (o.maxDy ?? 16))
            .flatMap(({ phrases: below }) => below.filter((b) => b.x >= phrase.x - 6 && b.x < phrase.end))[0];
          if (under) candidates.push(under.text);
        }
        for (const text of candidates) {
          const value = parse(text.replace(/^:\s*/, ''));
          if (value !== undefined) return { value, page: page.number };
        }
      }
    }
  }
  return undefined;
}

/** The first line (pages in order) matching `pattern`, with its page. */
export function onLine(pages: readonly PageLayout[], pattern: RegExp): { match: RegExpExecArray; page: number } | undefined {
  for (const page of pages) {
    for (const line of page.lines) {
      const match = pattern.exec(line.text);
      if (match) return { match, page: page.number };
    }
  }
  return undefined;
}

/** A printed amount with or without the dollar sign or its spacing: "$ 8,500.00 /month", "3,461.54" → cents. */
export function amount(text: string): number | undefined {
  const m = /^[–—-]?\s*\$?\s*([\d,]+(?:\.\d{2})?)(?:\s*(?:\/\s*(?:month|mo)|per month|a month))?$/i.exec(text.trim());
  return m ? parseMoney(`$${m[1]}`) : undefined;
}

/** Text a free-text value may be: words, not another label (which ends in a colon) or a bare number. */
export function plainText(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').trim();
  return t !== '' && /[A-Za-z]/.test(t) && !/:$/.test(t) && t.length <= 120 ? t : undefined;
}

// ---- The URLA ----------------------------------------------------------------------------------------------

/** AcroForm field names, compared as lowercase letters and digits ("Borrower.Name" → "borrowername"). */
const FIELD_NAMES = {
  applicationDate: /applicationdate|dateofapplication/,
  borrower: /borrower(?:full)?name|applicantname/,
  employer: /employer(?:orbusiness)?name|nameofemployer|businessname/,
  monthlyIncome: /base(?:monthly)?income|incomebase|basemonthly/,
  selfEmployed: /selfemployed|businessowner/,
  employed: /employed$/,
};

/** The URLA's printed labels, for a form whose data is in its text (a flattened or printed application). */
const LABELS = {
  applicationDate: /application date|date of application/,
  borrower: /borrower(?:'s|’s)? name|name \(first, middle, last, suffix\)|borrower/,
  employer: /employer or business name|employer(?:'s|’s)? name|name of employer|employer/,
  monthlyIncome: /base monthly income|monthly base income|base income|base/,
};

export function extractUrla(pages: readonly PageLayout[], formFields: readonly FormField[]): UrlaFields {
  const form = (name: RegExp) => formFields.find((f) => name.test(f.name.toLowerCase().replace(/[^a-z0-9]/g, '')));
  const fromForm = <T>(name: RegExp, schema: z.ZodType<T>): Located<T> | undefined => {
    const field = form(name);
    const parsed = field && schema.safeParse(field.value);
    return field && parsed?.success ? { value: parsed.data, page: field.page ?? pages[0]?.number ?? 1 } : undefined;
  };
  const selfEmployed = form(FIELD_NAMES.selfEmployed);
  const employed = formFields.find((f) => {
    const name = f.name.toLowerCase().replace(/[^a-z0-9]/g, '');
    return FIELD_NAMES.employed.test(name) && !FIELD_NAMES.selfEmployed.test(name);
  });
  return withoutUndefined({
    applicationDate: fromForm(FIELD_NAMES.applicationDate, FormValue.date) ?? labelled(pages, LABELS.applicationDate, findDate),
    borrower: fromForm(FIELD_NAMES.borrower, FormValue.text) ?? printed(pages, LABELS.borrower),
    employer: fromForm(FIELD_NAMES.employer, FormValue.text) ?? printed(pages, LABELS.employer),
    monthlyIncome: fromForm(FIELD_NAMES.monthlyIncome, FormValue.money) ?? labelled(pages, LABELS.monthlyIncome, amount),
    wageEarner: checkbox(selfEmployed, true, pages) ?? checkbox(employed, false, pages) ?? printedEmployment(pages),
  });
}

/** A checked box: the self-employed box makes the borrower no wage earner, the employed box one. */
function checkbox(field: FormField | undefined, meansSelfEmployed: boolean, pages: readonly PageLayout[]): Located<boolean> | undefined {
  const parsed = field && FormValue.checkbox.safeParse(field.value);
  if (!field || !parsed?.success || !parsed.data) return undefined;
  return { value: !meansSelfEmployed, page: field.page ?? pages[0]?.number ?? 1 };
}

/** "[X] Employed  [ ] Self-Employed", "[X] Check if you are the Business Owner or Self-Employed". */
function printedEmployment(pages: readonly PageLayout[]): Located<boolean> | undefined {
  const found = onLine(pages, /\[\s*[xX✓✔]\s*\]\s*(?:Check if you are the\s+)?(Business Owner or Self[- ]Employed|Self[- ]Employed|Employed)\b/);
  return found ? { value: !/self/i.test(found.match[1]!), page: found.page } : undefined;
}

/**
 * A name printed for a caption: Form 1003 prints its values under the captions, whose right-hand
 * neighbours are the next column's captions ("Social Security Number"), so the line below comes first.
 */
function printed(pages: readonly PageLayout[], label: RegExp): Located<string> | undefined {
  return labelled(pages, label, notALabel, { place: 'below' }) ?? labelled(pages, label, notALabel, { place: 'right', colonOnly: true });
}

/** A free-text value that is not one of the form's own labels. */
function notALabel(text: string): string | undefined {
  const t = plainText(text);
  if (!t || Object.values(LABELS).some((l) => new RegExp(`^(?:${l.source})$`, 'i').test(t))) return undefined;
  return t;
}
