// The loan application (URLA, Form 1003): the official form from its own fields (urla-official.ts), or from
// where a flattened or printed copy puts them (urla-printed.ts); another fillable application from fields
// named like its captions, else its printed labels.
import type { z } from 'zod';
import type { Located, UrlaFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import type { FormField } from '../reading/pdf-text.js';
import { amount, fromFormField, labelled, onLine, plainText, withoutUndefined } from './labels.js';
import { extractOfficialUrla, officialUrlaFields } from './urla-official.js';
import { printedOfficialUrlaFields } from './urla-printed.js';
import { FormValue, findDate, organisationName, personName } from './values.js';

/** AcroForm field names, compared as lowercase letters and digits ("Borrower.Name" → "borrowername"). */
const FIELD_NAMES = {
  applicationDate: /applicationdate|dateofapplication/,
  borrower: /borrower(?:full)?name|applicantname/,
  employer: /employer(?:orbusiness)?name|nameofemployer|businessname/,
  monthlyIncome: /base(?:monthly)?income|incomebase|basemonthly/,
  selfEmployed: /selfemployed|businessowner/,
  retired: /retired/,
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
  // The official form keeps every value in its own fields, and its page text is the blank form's captions.
  const official = officialUrlaFields(formFields) ?? printedOfficialUrlaFields(pages);
  if (official) return extractOfficialUrla(official, pages);
  const form = (name: RegExp) => formFields.find((f) => name.test(f.name.toLowerCase().replace(/[^a-z0-9]/g, '')));
  // A form field holds what a filler typed: validated like printed text (a caption is no name).
  const fromForm = <T>(
    name: RegExp,
    schema: z.ZodType<T>,
    shape: (value: T) => T | undefined = (v) => v,
  ): Located<T> | undefined => {
    const field = form(name);
    const parsed = field && schema.safeParse(field.value);
    const value = parsed?.success ? shape(parsed.data) : undefined;
    return field && value !== undefined ? fromFormField(field, value, pages) : undefined;
  };
  const selfEmployed = form(FIELD_NAMES.selfEmployed);
  const employed = formFields.find((f) => {
    const name = f.name.toLowerCase().replace(/[^a-z0-9]/g, '');
    return FIELD_NAMES.employed.test(name) && !FIELD_NAMES.selfEmployed.test(name);
  });
  return withoutUndefined({
    applicationDate:
      fromForm(FIELD_NAMES.applicationDate, FormValue.date) ?? labelled(pages, LABELS.applicationDate, findDate),
    borrower: fromForm(FIELD_NAMES.borrower, FormValue.text, personName) ?? printed(pages, LABELS.borrower, personName),
    employer:
      fromForm(FIELD_NAMES.employer, FormValue.text, organisationName) ??
      printed(pages, LABELS.employer, organisationName),
    monthlyIncome:
      fromForm(FIELD_NAMES.monthlyIncome, FormValue.money) ?? labelled(pages, LABELS.monthlyIncome, amount),
    wageEarner:
      checkbox(selfEmployed, true, pages) ??
      checkbox(form(FIELD_NAMES.retired), true, pages) ??
      checkbox(employed, false, pages) ??
      printedEmployment(pages),
  });
}

/** A checked box: the self-employed (or retired) box makes the borrower no wage earner, the employed box one. */
function checkbox(
  field: FormField | undefined,
  meansNoWages: boolean,
  pages: readonly PageLayout[],
): Located<boolean> | undefined {
  const parsed = field && FormValue.checkbox.safeParse(field.value);
  if (!field || !parsed?.success || !parsed.data) return undefined;
  return fromFormField(field, !meansNoWages, pages);
}

/** "[X] Employed  [ ] Self-Employed", "[X] Check if you are the Business Owner or Self-Employed", "☒ Retired". */
function printedEmployment(pages: readonly PageLayout[]): Located<boolean> | undefined {
  // A mark as typed ("[X]") or as a scan's box found in its pixels ("☒"). A retired borrower, like a
  // business owner, earns no wages: DOC-003's pay stubs and W-2 are not theirs to give.
  const found = onLine(
    pages,
    /(?:\[\s*[xX✓✔]\s*\]|[☒☑■✓✔])\s*(?:Check if you are the\s+)?(Business Owner or Self[- ]Employed|Self[- ]Employed|Retired|Employed)\b/,
  );
  return found ? { value: !/self|retired/i.test(found.match[1]!), page: found.page, box: found.box } : undefined;
}

/**
 * A name printed for a caption: Form 1003 prints its values under the captions, whose right-hand
 * neighbours are the next column's captions ("Social Security Number"), so the line below comes first.
 */
function printed(
  pages: readonly PageLayout[],
  label: RegExp,
  shape: (text: string) => string | undefined,
): Located<string> | undefined {
  const value = notALabel(shape);
  return (
    labelled(pages, label, value, { place: 'below' }) ??
    labelled(pages, label, value, { place: 'right', colonOnly: true })
  );
}

/** A free-text value that is not one of the form's own labels, in the shape of what it names. */
function notALabel(shape: (text: string) => string | undefined): (text: string) => string | undefined {
  return (text) => {
    const t = plainText(text);
    if (!t || Object.values(LABELS).some((l) => new RegExp(`^(?:${l.source})$`, 'i').test(t))) return undefined;
    return shape(t);
  };
}
