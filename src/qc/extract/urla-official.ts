// The official URLA (Fannie Mae Form 1003 / Freddie Mac Form 65, 2021) as loan origination systems and PDF
// fillers fill it: every value in an AcroForm field the form names by section (`_1a_Name[0]`,
// `_1b_Employer[0]`, `_1b_Base[0]`, table rows `_2a_Cash3[0]`) under its pages' subforms
// (`topmostSubform[0].Page1[0]…`); the page text is the blank form's captions, which are never values. The
// fields are found by their section and name whatever the path above them; copies of the borrower's name in
// the pages' running header (`#pageSet`) are not fields of Section 1a. Dropdowns of a blank form hold a
// default (a state, "Checking", "Foster Care"): a choice alone, without the name or amount it qualifies, is
// no value.
import {
  type Cents,
  INCOME_COMPONENTS,
  type IncomeComponent,
  type IsoDate,
  type Located,
  type UrlaContradiction,
  type UrlaEmployment,
  type UrlaFields,
  type UrlaFormValue,
} from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import type { FormField } from '../reading/pdf-text.js';
import { fromFormField, withoutUndefined } from './labels.js';
import { organisationName, parseAmount, personName } from './values.js';

/** `_1b_Base[0]`: the section ("1b") and the name within it ("Base"). */
const OFFICIAL_NAME = /^_(\d[a-e])_([A-Za-z0-9_]+?)\[\d+\]$/;

/** Values a check box holds when unchecked; any other (its export value: "1", "Yes", "On") checks it. */
const UNCHECKED = new Set(['', 'off', 'no', 'false', '0']);

/** The income components' field names in Sections 1b and 1c. */
const COMPONENT_FIELDS: Record<IncomeComponent, string> = {
  base: 'Base',
  overtime: 'Overtime',
  bonus: 'Bonus',
  commission: 'Commission',
  military: 'Military',
  other: 'Other',
};

/** Rows the form's tables hold at most (1e three, 2a five, 2b four, 2c five, 2d three). */
const MAX_ROWS = 9;

/**
 * A field of the official form as "section.name" ("1b.Base") by its full name; undefined for another
 * form's field or a copy in the pages' running header.
 */
export function officialFieldKey(name: string): string | undefined {
  const path = name.split('.');
  if (path.some((part) => part.startsWith('#pageSet'))) return undefined;
  const m = OFFICIAL_NAME.exec(path.at(-1) ?? '');
  return m ? `${m[1]}.${m[2]}` : undefined;
}

/** The official form's fields by "section.name" ("1b.Base"), or undefined when `formFields` holds none. */
export function officialUrlaFields(formFields: readonly FormField[]): Map<string, FormField> | undefined {
  const fields = new Map<string, FormField>();
  for (const field of formFields) {
    const key = officialFieldKey(field.name);
    if (key && !fields.has(key)) fields.set(key, field);
  }
  return fields.size > 0 ? fields : undefined;
}

/** Sections 1a–1e and 2a–2d of the official form, read from its fields. */
export function extractOfficialUrla(fields: Map<string, FormField>, pages: readonly PageLayout[]): UrlaFields {
  const form = new OfficialForm(fields, pages);
  const employments = [form.employment('1b', true), form.employment('1c', true), form.employment('1d', false)].filter(
    (e): e is UrlaEmployment => e !== undefined,
  );
  const current = employments.find((e) => e.current);
  const urla = withoutUndefined<UrlaFields>({
    borrower: form.located('1a.Name', personName),
    otherBorrowers: form.otherBorrowers(),
    currentAddress: form.address(),
    employer: current?.employer,
    monthlyIncome: current?.income.base,
    monthlyEmploymentIncome: current?.monthlyTotal,
    // A business owner or self-employed borrower earns no wages: DOC-003's pay stubs and W-2 are not theirs.
    wageEarner:
      current && (current.selfEmployed ?? current.employer)
        ? { ...(current.selfEmployed ?? current.employer!), value: current.selfEmployed?.value !== true }
        : undefined,
    employments: employments.length > 0 ? employments : undefined,
    otherIncome: form.rows('1e', (n) => {
      const monthly = form.money(`1e.Other_Monthly_Income${n}`);
      return monthly && monthly.value > 0
        ? withoutUndefined({ source: form.text(`1e.Income_Other_Sources${n}`), monthly })
        : undefined;
    }),
    assets: nonEmpty([
      ...(form.rows('2a', (n) => {
        const value = form.money(`2a.Cash${n}`);
        return value && value.value > 0
          ? withoutUndefined({
              kind: form.text(`2a.Account_Type${n}`),
              institution: form.text(`2a.Financial${n}`),
              value,
            })
          : undefined;
      }) ?? []),
      ...(form.rows('2b', (n) => {
        const value = form.money(`2b.Cash${n}`);
        return value && value.value > 0 ? withoutUndefined({ kind: form.text(`2b.Asset_Type${n}`), value }) : undefined;
      }) ?? []),
    ]),
    liabilities: nonEmpty([
      ...(form.rows('2c', (n) => {
        const creditor = form.text(`2c.Company${n}`);
        const unpaidBalance = form.money(`2c.Unpaid${n}`);
        const monthly = form.money(`2c.Monthly${n}`);
        if (!creditor && !(unpaidBalance && unpaidBalance.value > 0) && !(monthly && monthly.value > 0))
          return undefined;
        return withoutUndefined({
          kind: form.text(`2c.Account_Type${n}`),
          creditor,
          unpaidBalance,
          monthly,
          paidOff: form.checked(`2c.Paid_Off${n}`) ? true : undefined,
        });
      }) ?? []),
      ...(form.rows('2d', (n) => {
        const monthly = form.money(`2d.Monthly${n}`);
        return monthly && monthly.value > 0
          ? withoutUndefined({ kind: form.text(`2d.Liability_Type${n}`), monthly })
          : undefined;
      }) ?? []),
    ]),
  });
  return form.contradictions.length > 0 ? { ...urla, contradictions: form.contradictions } : urla;
}

function isLocated(value: unknown): value is Located<string | Cents> {
  return typeof value === 'object' && value !== null && 'value' in value && 'page' in value;
}

function nonEmpty<T>(items: T[]): T[] | undefined {
  return items.length > 0 ? items : undefined;
}

/** The form's fields read as values: text with its spaces and line breaks evened out, amounts, boxes, dates. */
class OfficialForm {
  /** Where the form contradicts itself, as its sections are read. */
  readonly contradictions: UrlaContradiction[] = [];

  constructor(
    private readonly fields: Map<string, FormField>,
    private readonly pages: readonly PageLayout[],
  ) {}

  /** A field's text, its runs of spaces and line breaks one space; undefined when blank. */
  text(key: string): string | undefined {
    const value = this.fields.get(key)?.value;
    if (typeof value !== 'string') return undefined;
    const t = value.replace(/\s+/g, ' ').trim();
    return t === '' ? undefined : t;
  }

  /** A field's text in the shape `shape` accepts (a person's name, an employer's), where it stands. */
  located<T>(key: string, shape: (text: string) => T | undefined): Located<T> | undefined {
    const text = this.text(key);
    const value = text === undefined ? undefined : shape(text);
    return value === undefined ? undefined : fromFormField(this.fields.get(key)!, value, this.pages);
  }

  /** An amount ("6,250.00", "$6250", "6 250.00"): spaces inside a figure are a filler's, not a separator. */
  money(key: string): Located<Cents> | undefined {
    return this.located(key, (text) => parseAmount(text.replace(/\s+/g, '')));
  }

  /** A scan's OCR was unsure of what the field holds. */
  uncertain(key: string): boolean {
    return this.fields.get(key)?.uncertain === true;
  }

  checked(key: string): boolean {
    const value = this.fields.get(key)?.value;
    return value === true || (typeof value === 'string' && !UNCHECKED.has(value.trim().toLowerCase()));
  }

  /** A check box as a located boolean: true where checked, false at `otherwise` where it is not. */
  box(key: string, otherwise: Located<unknown> | undefined): Located<boolean> | undefined {
    if (this.checked(key)) return fromFormField(this.fields.get(key)!, true, this.pages);
    return otherwise && { ...otherwise, value: false };
  }

  /**
   * A date kept in three fields (`…_Month`, `…_Day`, `…_Year`), each looked up under any of `prefixes` (the
   * form names 1d's end year "Employent_End_Year" beside "Employment_End_Month"); the 1st when no day is given.
   */
  date(...prefixes: string[]): Located<IsoDate> | undefined {
    const part = (name: string) => {
      const key = prefixes.map((p) => `${p}_${name}`).find((k) => this.text(k) !== undefined);
      return key === undefined ? undefined : { key, text: this.text(key)! };
    };
    const [month, day, year] = [part('Month'), part('Day'), part('Year')];
    if (!month || !year || !/^\d{4}$/.test(year.text)) return undefined;
    const [m, d] = [Number(month.text), Number(day?.text ?? '1')];
    if (!Number.isInteger(m) || !Number.isInteger(d)) return undefined;
    const iso = `${year.text}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    const date = new Date(`${iso}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) return undefined;
    return fromFormField(this.fields.get(year.key)!, iso, this.pages);
  }

  /** Section 1a's "List Name(s) of Other Borrower(s) Applying for this Loan": one or more names. */
  otherBorrowers(): Located<string>[] | undefined {
    const field = this.fields.get('1a.Borrower_s_Name');
    const value = typeof field?.value === 'string' ? field.value : '';
    const names = value
      .split(/[;\n\r]+|\s+and\s+|\s*&\s*/)
      // "Okafor, Marcus J" is one name; "Marcus J Okafor, Ada Okafor" two.
      .flatMap((part) => {
        const pieces = part.split(',');
        return pieces.length > 1 && pieces.every((p) => personName(p) !== undefined) ? pieces : [part];
      })
      .flatMap((part) => {
        const name = personName(part);
        return name ? [fromFormField(field!, name, this.pages)] : [];
      });
    return names.length > 0 ? names : undefined;
  }

  /** Section 1a's current address on one line; a state or country alone (a dropdown's default) is none. */
  address(): Located<string> | undefined {
    const street = this.text('1a.Address_St');
    const city = this.text('1a.Address_City');
    if (!street || !city) return undefined;
    const unit = this.text('1a.Address_Unit');
    const state = this.text('1a.Address_State');
    const zip = this.text('1a.Address_Zip');
    const line = [street, unit, city, [state, zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
    return fromFormField(this.fields.get('1a.Address_St')!, line, this.pages);
  }

  /**
   * An employment of Section 1b or 1c (current: income by component) or 1d (previous: dates, its gross
   * monthly income as its total); none when the section names no employer and no income. A section marked
   * "Does not apply" that is filled in is read all the same, and the contradiction noted, as is a total that
   * is not the sum of its components.
   */
  employment(section: '1b' | '1c' | '1d', current: boolean): UrlaEmployment | undefined {
    const employer = this.located(`${section}.Employer`, organisationName);
    const income: Partial<Record<IncomeComponent, Located<Cents>>> = {};
    if (current)
      for (const component of INCOME_COMPONENTS) {
        const amount = this.money(`${section}.${COMPONENT_FIELDS[component]}`);
        if (amount) income[component] = amount;
      }
    const totalKey = current ? `${section}.IncomeTotal` : `${section}.Gross_Monthly_Income`;
    const stated = this.money(totalKey);
    const components = Object.values(income).filter((a) => a.value > 0);
    const sum = components.reduce((total, a) => total + a.value, 0);
    // A scan's amount OCR was unsure of is read, but asserts no contradiction: a misread digit is no
    // total that fails to add up.
    const unsure =
      this.uncertain(totalKey) ||
      (current && INCOME_COMPONENTS.some((c) => this.uncertain(`${section}.${COMPONENT_FIELDS[c]}`)));
    // A total left blank or zero is the components' sum, a value worked out, so located on no box.
    const monthlyTotal =
      stated && stated.value > 0
        ? stated
        : components.length > 0
          ? { value: sum, page: components[0]!.page }
          : undefined;
    if (!employer && !monthlyTotal) return undefined;
    const componentValues: UrlaFormValue[] = Object.entries(income).map(([component, at]) => ({
      label: COMPONENT_FIELDS[component as IncomeComponent],
      at,
    }));
    this.filledDespiteNotApplicable(section, [
      ...(employer ? [{ label: 'Employer', at: employer }] : []),
      ...componentValues,
      ...(!current && stated ? [{ label: 'Gross monthly income', at: stated }] : []),
    ]);
    // A total a dollar off its components is rounding; more is a figure that does not add up.
    if (!unsure && stated && stated.value > 0 && components.length > 0 && Math.abs(stated.value - sum) > 100)
      this.contradictions.push({
        section,
        kind: 'total_not_sum',
        says: { label: 'Total', at: stated },
        yet: componentValues,
      });
    const share = this.checked(`${section}.Ownership_More`)
      ? '25_percent_or_more'
      : this.checked(`${section}.Ownership_Less`)
        ? 'under_25_percent'
        : undefined;
    const anchor = employer ?? monthlyTotal;
    return withoutUndefined({
      current,
      employer,
      position: this.located(`${section}.Position`, (t) => t),
      startDate: this.date(`${section}.Employment_Start`),
      endDate: current ? undefined : this.date(`${section}.Employment_End`, `${section}.Employent_End`),
      selfEmployed: this.box(`${section}.Owner`, anchor),
      ownershipShare:
        share &&
        fromFormField(
          this.fields.get(`${section}.${share === '25_percent_or_more' ? 'Ownership_More' : 'Ownership_Less'}`)!,
          share,
          this.pages,
        ),
      income,
      monthlyTotal,
    }) as UrlaEmployment;
  }

  /**
   * A table's rows, numbered from 1, as `row` reads each (undefined: an empty row). Rows filled in a
   * section marked "Does not apply" are read all the same, and the contradiction noted.
   */
  rows<T extends object>(section: string, row: (n: number) => T | undefined): T[] | undefined {
    const rows: T[] = [];
    for (let n = 1; n <= MAX_ROWS; n++) {
      const read = row(n);
      if (read !== undefined) rows.push(read);
    }
    if (rows.length === 0) return undefined;
    // Each row's amounts, named by what the row says it is ("row 1, First Harbor Bank").
    this.filledDespiteNotApplicable(
      section,
      rows.flatMap((r, i) => {
        const named = Object.values(r).filter((v): v is string => typeof v === 'string');
        const label = [`row ${i + 1}`, ...named].join(', ');
        return Object.values(r).flatMap((v) => (isLocated(v) ? [{ label, at: v }] : []));
      }),
    );
    return rows;
  }

  /** Notes the contradiction when the section's "Does not apply" box is checked over the values `filled`. */
  private filledDespiteNotApplicable(section: string, filled: UrlaFormValue[]): void {
    const key = [`${section}.Does_Not_Apply`, `${section}.Does_Not_Apply1`].find((k) => this.checked(k));
    if (!key || filled.length === 0) return;
    this.contradictions.push({
      section,
      kind: 'not_applicable_but_filled',
      says: { label: 'Does not apply', at: fromFormField(this.fields.get(key)!, true, this.pages) },
      yet: filled,
    });
  }
}
