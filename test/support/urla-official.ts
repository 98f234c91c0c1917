// Copies of the official URLA (Form 1003, 2021, test/corpus/public-docs/urla-official) filled here as other
// lenders' systems fill it: other values and people, co-borrowers, two current employers, a self-employed
// owner, boxes in other states, values with stray spaces and line breaks, a total left zero; flattened or
// redrawn as PDF tools leave them; and the copies pypdf filled (the corpus folder's fill-with-pypdf.py). The
// unit and reading tests and `npm run bench:reading` read them.
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFDropdown, StandardFonts } from 'pdf-lib';
import type { DocumentOf, UrlaFields } from '../../src/qc/fields.js';
import { analyseFile } from '../../src/qc/logical-documents.js';

const folder = new URL('../corpus/public-docs/urla-official/', import.meta.url);
export const OFFICIAL_URLA_BLANK = readFileSync(new URL('urla_1003_blank.pdf', folder));
export const OFFICIAL_URLA_SAMPLE = readFileSync(new URL('urla_1003_sample_filled.pdf', folder));

/** The one URLA a PDF holds, read by the engine (its text layer and fields; no OCR). */
export async function urlaOf(bytes: Uint8Array): Promise<UrlaFields> {
  const { documents } = await analyseFile('urla.pdf', 'application/pdf', bytes);
  if (documents.length !== 1 || documents[0]!.documentClass !== 'urla')
    throw new Error(`one URLA expected, not ${documents.map((d) => d.documentClass).join(', ')}`);
  return (documents[0] as DocumentOf<'urla'>).fields;
}

/** The values of a reading, where they stand left aside. */
export const withoutPlaces = (o: unknown) =>
  o === undefined ? undefined : JSON.parse(JSON.stringify(o, (k, v) => (k === 'box' || k === 'page' ? undefined : v)));

/** What a reader must take from a copy, as UrlaFields names them (amounts in cents). */
export interface UrlaExpected {
  borrower?: string;
  otherBorrowers?: string[];
  currentAddress?: string;
  employer?: string;
  position?: string;
  startDate?: string;
  selfEmployed?: boolean;
  monthlyIncome?: number;
  monthlyEmploymentIncome?: number;
}

/** What a reading took, in the shape of what it must take (undefined where it took nothing). */
export function urlaAsExpected(urla: UrlaFields): UrlaExpected {
  const job = urla.employments?.find((e) => e.current);
  return {
    borrower: urla.borrower?.value,
    otherBorrowers: urla.otherBorrowers?.map((b) => b.value),
    currentAddress: urla.currentAddress?.value,
    employer: urla.employer?.value,
    position: job?.position?.value,
    startDate: job?.startDate?.value,
    selfEmployed: job?.selfEmployed?.value,
    monthlyIncome: urla.monthlyIncome?.value,
    monthlyEmploymentIncome: urla.monthlyEmploymentIncome?.value,
  };
}

/** A reading's employments as "current Employer 1,100,000" (the monthly total in cents), in the form's order. */
export function employmentsAsExpected(urla: UrlaFields): string[] {
  return (urla.employments ?? []).map(
    (e) => `${e.current ? 'current' : 'previous'} ${e.employer?.value ?? '?'} ${e.monthlyTotal?.value ?? '?'}`,
  );
}

/** A reading's contradictions as "1b not_applicable_but_filled". */
export function contradictionsAsExpected(urla: UrlaFields): string[] {
  return (urla.contradictions ?? []).map((c) => `${c.section} ${c.kind}`);
}

/** The filled sample's values (its JSON). */
export const OFFICIAL_URLA_SAMPLE_EXPECTED: UrlaExpected = (() => {
  const { fields: f } = JSON.parse(readFileSync(new URL('urla_1003_sample_filled.json', folder), 'utf8')) as {
    fields: Record<'borrower' | 'co_borrower_named' | 'current_address' | 'employer' | 'position', string> &
      Record<'employment_start', string> &
      Record<'monthly_base_income' | 'monthly_income_total', number> & { self_employed: boolean };
  };
  return {
    borrower: f.borrower,
    otherBorrowers: [f.co_borrower_named],
    currentAddress: f.current_address,
    employer: f.employer,
    position: f.position,
    startDate: f.employment_start,
    selfEmployed: f.self_employed,
    monthlyIncome: Math.round(f.monthly_base_income * 100),
    monthlyEmploymentIncome: Math.round(f.monthly_income_total * 100),
  };
})();

/**
 * The blank official form filled with `text` (by the fields' own names, `_1b_Base`; a dropdown's choice as its
 * text) and `checked` boxes.
 */
export async function fillOfficialUrla(
  text: Record<string, string>,
  checked: readonly string[] = [],
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(OFFICIAL_URLA_BLANK);
  const form = doc.getForm();
  const byName = (name: string) => {
    const field = form
      .getFields()
      .find((f) => f.getName().endsWith(`.${name}[0]`) && !f.getName().includes('#pageSet'));
    if (!field) throw new Error(`no field ${name}`);
    return field.getName();
  };
  for (const [name, value] of Object.entries(text)) {
    const field = form.getField(byName(name));
    if (field instanceof PDFDropdown) field.select(value);
    else form.getTextField(byName(name)).setText(value);
  }
  for (const name of checked) form.getCheckBox(byName(name)).check();
  // Without its XFA copy of the data, the AcroForm fields are the form's values for every reader.
  form.deleteXFA();
  return doc.save();
}

/** `pdf` flattened as pdf-lib flattens a form: every field's appearance drawn into its page, the fields gone. */
export async function flattened(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  doc.getForm().flatten();
  return doc.save();
}

/** `pdf` with its fields' appearance streams drawn again (in Helvetica), as a viewer that saves a form does. */
export async function appearancesRedrawn(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  doc.getForm().updateFieldAppearances(await doc.embedFont(StandardFonts.Helvetica));
  return doc.save();
}

/** The filled sample's one employment, as employmentsAsExpected gives it. */
export const OFFICIAL_URLA_SAMPLE_EMPLOYMENTS = ['current Cascade Valley Dental Group 660000'];

/** Copies filled by pypdf (the folder's fill-with-pypdf.py), each with what must be read from it. */
export const PYPDF_COPIES = {
  /** Values in the fields, two current employments, previous employment "Does not apply". */
  filled: {
    bytes: readFileSync(new URL('urla_1003_pypdf_filled.pdf', folder)),
    expected: {
      borrower: 'Priya N Raman',
      currentAddress: '5120 Cedar Hollow Dr, Raleigh, NC 27606',
      employer: 'Triangle Biologics Inc',
      position: 'Lab Director',
      startDate: '2017-04-12',
      selfEmployed: false,
      monthlyIncome: 875_000,
      monthlyEmploymentIncome: 935_000,
    } satisfies UrlaExpected,
    employments: ['current Triangle Biologics Inc 935000', 'current Wake Tech Community College 115000'],
    contradictions: [] as string[],
  },
  /** Flattened: Section 1b marked "Does not apply" yet filled, its total $500 over its one component. */
  flattenedContradictory: {
    bytes: readFileSync(new URL('urla_1003_pypdf_flattened.pdf', folder)),
    expected: {
      borrower: 'Tomas R Lindqvist',
      currentAddress: '88 Quarry Road, Barre, VT 05641',
      employer: 'Granite State Freight LLC',
      selfEmployed: false,
      monthlyIncome: 420_000,
      monthlyEmploymentIncome: 470_000,
    } satisfies UrlaExpected,
    employments: ['current Granite State Freight LLC 470000', 'current Green Mountain Rentals 130000'],
    contradictions: ['1b not_applicable_but_filled', '1b total_not_sum'],
  },
};

/** Copies filled otherwise, each with what must be read from it. */
export const OFFICIAL_URLA_COPIES: {
  name: string;
  text: Record<string, string>;
  checked?: string[];
  expected: UrlaExpected;
  /** Every employment, as employmentsAsExpected gives it. */
  employments: string[];
}[] = [
  {
    name: 'a self-employed owner with a second job, stray spaces and line breaks, a total left zero',
    text: {
      _1a_Name: '  Dmitri   A\nVolkov ',
      _1a_Borrower_s_Name: 'Ana Volkov; Pavel Volkov',
      _1a_Address_St: '18 Harbor View Rd',
      _1a_Address_Unit: 'Apt 4',
      _1a_Address_City: 'Portland',
      _1a_Address_State: 'OR',
      _1a_Address_Zip: '97201',
      _1b_Employer: 'Volkov\nMarine Services LLC',
      _1b_Position: 'Owner',
      _1b_Employment_Start_Month: '3',
      _1b_Employment_Start_Day: '1',
      _1b_Employment_Start_Year: '2015',
      _1b_Base: ' 9 800.00',
      _1b_Commission: '$1,200',
      _1b_IncomeTotal: '0.00',
      _1c_Employer: 'Harbor Pilots Association',
      _1c_Base: '2,000.00',
      _1c_IncomeTotal: '2,000.00',
      _1d_Employer: 'Columbia Tug Co',
      _1d_Employment_Start_Month: '07',
      _1d_Employment_Start_Year: '2009',
      _1d_Employment_End_Month: '02',
      _1d_Employent_End_Year: '2015',
      _1d_Gross_Monthly_Income: '6,100.00',
      _1e_Other_Monthly_Income1: '450.00',
      _2a_Financial1: 'First Harbor Bank',
      _2a_Cash1: '24,500.00',
      _2c_Company1: 'Harbor Auto Finance',
      _2c_Unpaid1: '12,000.00',
      _2c_Monthly1: '410.00',
    },
    checked: ['_1b_Owner', '_1b_Ownership_More'],
    expected: {
      borrower: 'Dmitri A Volkov',
      otherBorrowers: ['Ana Volkov', 'Pavel Volkov'],
      currentAddress: '18 Harbor View Rd, Apt 4, Portland, OR 97201',
      employer: 'Volkov Marine Services LLC',
      position: 'Owner',
      startDate: '2015-03-01',
      selfEmployed: true,
      monthlyIncome: 980_000,
      monthlyEmploymentIncome: 1_100_000,
    },
    employments: [
      'current Volkov Marine Services LLC 1100000',
      'current Harbor Pilots Association 200000',
      'previous Columbia Tug Co 610000',
    ],
  },
  {
    name: 'an individual application, a wage earner with overtime, a day-less start date',
    text: {
      _1a_Name: 'MARIA L GUTIERREZ',
      _1a_Address_St: '700 W Adams St',
      _1a_Address_City: 'Phoenix',
      _1a_Address_State: 'AZ',
      _1a_Address_Zip: '85007',
      _1b_Employer: 'Desert Sun Health System',
      _1b_Position: 'Registered Nurse',
      _1b_Employment_Start_Month: '11',
      _1b_Employment_Start_Year: '2020',
      _1b_Base: '5,416.67',
      _1b_Overtime: '833.33',
      _1b_IncomeTotal: '6,250.00',
    },
    checked: ['_1a_Individual', '_1a_Unmarried'],
    expected: {
      borrower: 'MARIA L GUTIERREZ',
      currentAddress: '700 W Adams St, Phoenix, AZ 85007',
      employer: 'Desert Sun Health System',
      position: 'Registered Nurse',
      startDate: '2020-11-01',
      selfEmployed: false,
      monthlyIncome: 541_667,
      monthlyEmploymentIncome: 625_000,
    },
    employments: ['current Desert Sun Health System 625000'],
  },
  {
    name: 'a co-borrower listed last name first, an owner of less than 25% who is employed',
    text: {
      _1a_Name: 'Samuel K Adeyemi',
      _1a_Borrower_s_Name: 'Adeyemi, Grace O',
      _1a_Address_St: '41 Elm Court',
      _1a_Address_City: 'Columbus',
      _1a_Address_State: 'OH',
      _1a_Address_Zip: '43215',
      _1b_Employer: 'Buckeye Logistics Partners',
      _1b_Position: 'Dispatcher',
      _1b_Employment_Start_Month: '01',
      _1b_Employment_Start_Day: '09',
      _1b_Employment_Start_Year: '2019',
      _1b_Base: '4,900.00',
      _1b_Bonus: '250.00',
      _1b_IncomeTotal: '5,150.00',
    },
    checked: ['_1a_Joint', '_1b_Ownership_Less'],
    expected: {
      borrower: 'Samuel K Adeyemi',
      otherBorrowers: ['Adeyemi, Grace O'],
      currentAddress: '41 Elm Court, Columbus, OH 43215',
      employer: 'Buckeye Logistics Partners',
      position: 'Dispatcher',
      startDate: '2019-01-09',
      selfEmployed: false,
      monthlyIncome: 490_000,
      monthlyEmploymentIncome: 515_000,
    },
    employments: ['current Buckeye Logistics Partners 515000'],
  },
];
