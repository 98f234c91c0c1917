// The official URLA (Form 1003, 2021) as it arrives other than in fillable fields: flattened by pdf-lib or by
// pypdf (values drawn into the page, no fields left), redrawn by a viewer, printed smaller and shifted. Each
// reads by the form's own geometry as its fillable copy reads by the fields' names; the scanned print is
// test/reading/urla-scanned.test.ts.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { BLANK, officialUrlaLayout } from '../../../../scripts/forms/urla-official-layout.js';
import { OFFICIAL_URLA_LAYOUT } from '../../../../src/qc/extract/urla-official-layout.js';
import { analyseDocuments } from '../../../../src/qc/analyse.js';
import type { UrlaFields } from '../../../../src/qc/fields.js';
import { terminatePdfThreads } from '../../../../src/qc/reading/pdf-threads.js';
import {
  appearancesRedrawn,
  fillOfficialUrla as filled,
  flattened,
  OFFICIAL_URLA_BLANK as blank,
  OFFICIAL_URLA_COPIES,
  OFFICIAL_URLA_SAMPLE,
  OFFICIAL_URLA_SAMPLE_EXPECTED,
  PYPDF_COPIES,
  urlaAsExpected,
  urlaOf,
  withoutPlaces,
} from '../../../support/urla-official.js';

test.after.always(() => terminatePdfThreads());

/**
 * Every section as read, but for the kinds the dropdowns give (an account's type, an income's source): a
 * dropdown left at its default prints nothing, while its field still holds the default.
 */
function sections(urla: UrlaFields): unknown {
  const withoutKinds = (rows: object[] | undefined) =>
    rows?.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'kind' && k !== 'source')));
  return withoutPlaces({
    ...urla,
    otherIncome: withoutKinds(urla.otherIncome),
    assets: withoutKinds(urla.assets),
    liabilities: withoutKinds(urla.liabilities),
  });
}

/** The two shapes the contradictions of a reading take, with the values each side names. */
const contradictionsOf = (urla: UrlaFields) =>
  urla.contradictions?.map((c) => [c.section, c.kind, c.says.at.value, c.yet.map((y) => y.at.value)]);

test('the layout of the blank form the reader uses is the one the blank form gives', async (t) => {
  t.deepEqual(OFFICIAL_URLA_LAYOUT, await officialUrlaLayout(readFileSync(BLANK)));
});

test('a copy flattened by pdf-lib reads section by section as its fillable copy: the sample and every copy', async (t) => {
  const fillable = [
    OFFICIAL_URLA_SAMPLE,
    ...(await Promise.all(OFFICIAL_URLA_COPIES.map((c) => filled(c.text, c.checked)))),
  ];
  for (const [i, copy] of fillable.entries()) {
    const flat = await flattened(copy);
    t.is((await PDFDocument.load(flat)).getForm().getFields().length, 0, 'no field is left');
    const [asFilled, asFlattened] = [await urlaOf(copy), await urlaOf(flat)];
    t.deepEqual(sections(asFlattened), sections(asFilled), i === 0 ? 'the sample' : OFFICIAL_URLA_COPIES[i - 1]!.name);
  }
  t.deepEqual(
    withoutPlaces(urlaAsExpected(await urlaOf(await flattened(OFFICIAL_URLA_SAMPLE))))!,
    OFFICIAL_URLA_SAMPLE_EXPECTED,
  );
});

test('each value of a flattened copy is located where the page prints it', async (t) => {
  const copy = OFFICIAL_URLA_COPIES[0]!;
  const urla = await urlaOf(await flattened(await filled(copy.text, copy.checked)));
  const base = urla.employments?.[0]?.income.base;
  // "9 800.00" is printed in Section 1b's Base box on page 1.
  t.is(base?.page, 1);
  t.true(base!.box!.x0 > 504 && base!.box!.x1 < 549 && base!.box!.y0 > 180 && base!.box!.y1 < 194);
  t.is(urla.employments?.[1]?.employer?.page, 2, "Section 1c's employer is on page 2");
});

test('a contradictory copy flattened by pdf-lib gives the contradiction its fillable copy gives, both sides named', async (t) => {
  const copy = await filled(
    {
      _1a_Name: 'Lena M Ortiz',
      _1b_Employer: 'Ridgeline Surveying Inc',
      _1b_Base: '6,000.00',
      _1c_Employer: 'Valley Weekend Rentals',
      _1c_Base: '800.00',
      _2a_Financial1: 'Summit Credit Union',
      _2a_Cash1: '3,000.00',
    },
    ['_1b_Does_Not_Apply1', '_1e_Does_Not_Apply', '_2c_Does_Not_Apply'],
  );
  const asFlattened = await urlaOf(await flattened(copy));
  t.deepEqual(contradictionsOf(asFlattened), [
    ['1b', 'not_applicable_but_filled', true, ['Ridgeline Surveying Inc', 600_000]],
  ]);
  t.deepEqual(contradictionsOf(asFlattened), contradictionsOf(await urlaOf(copy)));
  t.is(asFlattened.contradictions?.[0]?.says.at.page, 1, 'the box is located');
});

test('a copy filled by pypdf reads from its fields; one pypdf flattened reads from its pages, contradictions and all', async (t) => {
  t.deepEqual(withoutPlaces(urlaAsExpected(await urlaOf(PYPDF_COPIES.filled.bytes))), PYPDF_COPIES.filled.expected);
  const urla = await urlaOf(PYPDF_COPIES.filled.bytes);
  t.deepEqual(
    urla.employments?.map((e) => [e.current, e.employer?.value, e.position?.value, e.monthlyTotal?.value]),
    [
      [true, 'Triangle Biologics Inc', 'Lab Director', 935_000],
      [true, 'Wake Tech Community College', 'Adjunct Instructor', 115_000],
    ],
  );
  t.is(urla.contradictions, undefined, '"Does not apply" over an empty Section 1d is what the box is for');
  const contradictory = await urlaOf(PYPDF_COPIES.flattenedContradictory.bytes);
  t.deepEqual(withoutPlaces(urlaAsExpected(contradictory)), PYPDF_COPIES.flattenedContradictory.expected);
  t.deepEqual(contradictionsOf(contradictory), [
    ['1b', 'not_applicable_but_filled', true, ['Granite State Freight LLC', 420_000]],
    ['1b', 'total_not_sum', 470_000, [420_000]],
  ]);
});

test('DOC-013 is raised for each contradiction of a flattened copy, as on a fillable one', async (t) => {
  const bytes = PYPDF_COPIES.flattenedContradictory.bytes;
  const analysis = await analyseDocuments(
    [{ id: '0', filename: 'urla.pdf', mime: 'application/pdf', objectKey: '0' }],
    async () => bytes,
    () => {},
    { concurrency: 1 },
  );
  const found = analysis.findings.filter((f) => f.code === 'DOC-013').map((f) => f.summary);
  t.is(found.length, 2, found.join('\n'));
  t.regex(found[0]!, /Section 1b \(current employment\) "Does not apply"/);
  t.regex(found[1]!, /Section 1b .*total/i);
});

test('a copy whose appearance streams were drawn again reads the same, fillable or flattened', async (t) => {
  const copy = OFFICIAL_URLA_COPIES[1]!;
  const redrawn = await appearancesRedrawn(await filled(copy.text, copy.checked));
  t.deepEqual(withoutPlaces(urlaAsExpected(await urlaOf(redrawn))), copy.expected);
  t.deepEqual(withoutPlaces(urlaAsExpected(await urlaOf(await flattened(redrawn)))), copy.expected);
});

test('a flattened copy printed smaller and off centre (a copier at 90%) reads the same', async (t) => {
  const copy = OFFICIAL_URLA_COPIES[0]!;
  const flat = await flattened(await filled(copy.text, copy.checked));
  const source = await PDFDocument.load(flat);
  const shrunk = await PDFDocument.create();
  for (const page of await shrunk.embedPages(source.getPages()))
    shrunk.addPage([612, 792]).drawPage(page, { x: 40, y: 25, xScale: 0.9, yScale: 0.9 });
  t.deepEqual(sections(await urlaOf(await shrunk.save())), sections(await urlaOf(flat)));
});

test('the blank form flattened gives no values; another application is not taken for the official form', async (t) => {
  t.deepEqual(withoutPlaces(await urlaOf(await flattened(blank))), {});
  const other = await PDFDocument.create();
  const page = other.addPage([612, 792]);
  const lines = [
    'Uniform Residential Loan Application',
    'Borrower Name: Lena M Ortiz',
    'Employer Name: Ridgeline Surveying Inc',
    'Base Monthly Income: $6,000.00',
  ];
  for (const [i, line] of lines.entries()) page.drawText(line, { x: 50, y: 700 - 20 * i, size: 11 });
  const urla = await urlaOf(await other.save());
  t.is(urla.employments, undefined, 'read by its labels, not by the official form');
  t.is(urla.employer?.value, 'Ridgeline Surveying Inc');
});
