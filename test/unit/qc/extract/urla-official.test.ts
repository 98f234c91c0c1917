// The official URLA (Form 1003, 2021) read from the fields the form names, as lenders' systems fill them:
// the agencies' blank form, the filled sample and its JSON (test/corpus/public-docs/urla-official), and
// copies of the blank filled here otherwise (other values, two current employers, boxes in other states,
// values with stray spaces and line breaks, a total left blank).
import test from 'ava';
import { analyseDocuments } from '../../../../src/qc/analyse.js';
import type { UrlaFields } from '../../../../src/qc/fields.js';
import { terminatePdfThreads } from '../../../../src/qc/reading/pdf-threads.js';
import {
  fillOfficialUrla as filled,
  OFFICIAL_URLA_BLANK as blank,
  OFFICIAL_URLA_COPIES,
  OFFICIAL_URLA_SAMPLE,
  OFFICIAL_URLA_SAMPLE_EXPECTED,
  type UrlaExpected,
  urlaAsExpected,
  urlaOf,
  withoutPlaces,
} from '../../../support/urla-official.js';

test.after.always(() => terminatePdfThreads());

/** What the reader took, in the shape of what it must take, its blanks left out. */
const asExpected = (urla: UrlaFields): UrlaExpected => withoutPlaces(urlaAsExpected(urla));

test('the filled sample reads as its JSON says, from the official field names', async (t) => {
  const urla = await urlaOf(OFFICIAL_URLA_SAMPLE);
  t.deepEqual(asExpected(urla), OFFICIAL_URLA_SAMPLE_EXPECTED);
  t.is(urla.wageEarner?.value, true);
  t.is(urla.employments?.[0]?.income.bonus?.value, 35_000);
  // Located where the form holds it: the base income field's widget on page 1.
  t.is(urla.monthlyIncome?.page, 1);
  t.truthy(urla.monthlyIncome?.box);
  // The sample says "Does not apply" to other income, assets and liabilities: their dropdowns' defaults are no values.
  t.deepEqual([urla.otherIncome, urla.assets, urla.liabilities], [undefined, undefined, undefined]);
});

for (const copy of OFFICIAL_URLA_COPIES)
  test(`a copy filled otherwise reads as filled: ${copy.name}`, async (t) => {
    t.deepEqual(asExpected(await urlaOf(await filled(copy.text, copy.checked))), copy.expected);
  });

test(
  'the blank official form gives no values at all (its ' + 'dropdowns’ defaults and its captions are none)',
  async (t) => {
    t.deepEqual(withoutPlaces(await urlaOf(blank)), {});
  },
);

test('the first copy in detail: its other employments, other income, assets and liabilities', async (t) => {
  const copy = OFFICIAL_URLA_COPIES[0]!;
  const urla = await urlaOf(await filled(copy.text, copy.checked));
  t.false(urla.wageEarner?.value, 'a business owner is no wage earner');
  const [own, second, previous] = urla.employments ?? [];
  t.true(own?.selfEmployed?.value);
  t.is(own?.ownershipShare?.value, '25_percent_or_more');
  // The total was left zero: the components' sum, worked out, so on no box.
  t.is(own?.monthlyTotal?.value, 1_100_000);
  t.is(own?.monthlyTotal?.box, undefined);
  t.deepEqual(
    [second?.current, second?.employer?.value, second?.monthlyTotal?.value, second?.selfEmployed?.value],
    [true, 'Harbor Pilots Association', 200_000, false],
  );
  t.deepEqual(
    [previous?.current, previous?.employer?.value, previous?.startDate?.value, previous?.endDate?.value],
    [false, 'Columbia Tug Co', '2009-07-01', '2015-02-01'],
  );
  t.is(previous?.monthlyTotal?.value, 610_000);
  t.deepEqual(withoutPlaces(urla.otherIncome), [{ source: 'Foster Care', monthly: { value: 45_000 } }]);
  t.deepEqual(withoutPlaces(urla.assets), [
    { kind: 'Bonds', institution: 'First Harbor Bank', value: { value: 2_450_000 } },
  ]);
  t.deepEqual(withoutPlaces(urla.liabilities), [
    {
      kind: 'Installment',
      creditor: 'Harbor Auto Finance',
      unpaidBalance: { value: 1_200_000 },
      monthly: { value: 41_000 },
    },
  ]);
});

/** The borrower's current employment (1b) marked "Does not apply" yet filled, beside an additional one (1c). */
const currentMarkedNotApplicable = () =>
  filled(
    {
      _1a_Name: 'Lena M Ortiz',
      _1b_Employer: 'Ridgeline Surveying Inc',
      _1b_Base: '6,000.00',
      _1c_Employer: 'Valley Weekend Rentals',
      _1c_Base: '800.00',
    },
    ['_1b_Does_Not_Apply1'],
  );

test('a section marked "Does not apply" that is filled in is read, and the contradiction kept with both sides', async (t) => {
  const urla = await urlaOf(await currentMarkedNotApplicable());
  t.deepEqual(
    urla.employments?.map((e) => [e.employer?.value, e.income.base?.value]),
    [
      ['Ridgeline Surveying Inc', 600_000],
      ['Valley Weekend Rentals', 80_000],
    ],
  );
  t.is(urla.employer?.value, 'Ridgeline Surveying Inc');
  t.deepEqual(withoutPlaces(urla.contradictions), [
    {
      section: '1b',
      kind: 'not_applicable_but_filled',
      says: { label: 'Does not apply', at: { value: true } },
      yet: [
        { label: 'Employer', at: { value: 'Ridgeline Surveying Inc' } },
        { label: 'Base', at: { value: 600_000 } },
      ],
    },
  ]);
  t.is(urla.contradictions?.[0]?.says.at.page, 1, 'the box is located');
});

test('a total that is not the sum of its components, and a table filled under "Does not apply", are contradictions', async (t) => {
  const urla = await urlaOf(
    await filled(
      {
        _1a_Name: 'Lena M Ortiz',
        _1b_Employer: 'Ridgeline Surveying Inc',
        _1b_Base: '5,000.00',
        _1b_Bonus: '1,000.00',
        _1b_IncomeTotal: '6,500.00',
        _2b_Cash1: '12,000.00',
      },
      ['_2b_Does_Not_Apply'],
    ),
  );
  t.deepEqual(
    withoutPlaces(urla.contradictions)?.map((c: { section: string; kind: string }) => [c.section, c.kind]),
    [
      ['1b', 'total_not_sum'],
      ['2b', 'not_applicable_but_filled'],
    ],
  );
  t.like(urla.assets?.[0], { value: { value: 1_200_000 } });
});

test('forms that agree with themselves have no contradiction: the sample, every copy, a total a cent off by rounding', async (t) => {
  t.is((await urlaOf(OFFICIAL_URLA_SAMPLE)).contradictions, undefined);
  for (const copy of OFFICIAL_URLA_COPIES)
    t.is((await urlaOf(await filled(copy.text, copy.checked))).contradictions, undefined, copy.name);
  const rounded = await urlaOf(
    await filled({ _1b_Employer: 'Acme', _1b_Base: '3,333.33', _1b_Bonus: '3,333.33', _1b_IncomeTotal: '6,666.67' }),
  );
  t.is(rounded.contradictions, undefined);
  // "Does not apply" over an empty section is what the box is for.
  t.is((await urlaOf(await filled({ _1a_Name: 'Lena M Ortiz' }, ['_1c_Does_Not_Apply']))).contradictions, undefined);
});

async function findingsOf(bytes: Uint8Array): Promise<{ code: string; cites: string[] }[]> {
  const analysis = await analyseDocuments(
    [{ id: '0', filename: 'urla.pdf', mime: 'application/pdf', objectKey: '0' }],
    async () => bytes,
    () => {},
    { concurrency: 1 },
  );
  return analysis.findings.map((f) => ({ code: f.code, cites: f.evidence.map((e) => `${e.document}:${e.field}`) }));
}

test(
  'the rules read the official form: a wage earner is asked for pay stubs, a ' +
    'self-employed owner is not, a blank form cites nothing',
  async (t) => {
    const employed = { _1a_Name: 'Lena M Ortiz', _1b_Employer: 'Ridgeline Surveying Inc', _1b_Base: '7,000.00' };
    const asWageEarner = await findingsOf(await filled(employed));
    t.deepEqual(asWageEarner.find((f) => f.code === 'DOC-003')?.cites, ['urla.pdf:wage_earner', 'urla.pdf:employer']);
    const asOwner = await findingsOf(await filled(employed, ['_1b_Owner']));
    t.false(asOwner.some((f) => f.code === 'DOC-003'));
    const fromBlank = await findingsOf(blank);
    t.deepEqual(
      fromBlank.filter((f) => f.cites.length > 0),
      [],
      'only findings of documents missing from the package, none built on the blank form',
    );
  },
);

test('DOC-013 names the section and both sides of a contradiction', async (t) => {
  const analysis = await analyseDocuments(
    [{ id: '0', filename: 'urla.pdf', mime: 'application/pdf', objectKey: '0' }],
    currentMarkedNotApplicable,
    () => {},
    { concurrency: 1 },
  );
  const found = analysis.findings.filter((f) => f.code === 'DOC-013');
  t.is(found.length, 1);
  t.regex(found[0]!.summary, /Section 1b \(current employment\) "Does not apply"/);
  t.regex(found[0]!.summary, /Employer Ridgeline Surveying Inc and Base \$6,000\.00/);
  t.deepEqual(
    found[0]!.evidence.map((e) => [e.field, e.value]),
    [
      ['section_1b_does_not_apply', '"Does not apply" checked'],
      ['section_1b_employer', 'Employer Ridgeline Surveying Inc'],
      ['section_1b_base', 'Base $6,000.00'],
    ],
  );
});
