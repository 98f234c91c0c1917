// The QC engine end to end on generated loan packages (test/fixtures): every package is rendered to PDFs
// (some scanned), each file read, split, classified and extracted as an upload would be, and the rules run
// over the whole. Found codes are compared with the codes each package's defects must produce; recall and
// precision are counted over (package, code) pairs: a code expected and found is a true positive, expected
// and not found a false negative, found and not expected a false positive, however many findings it has.
import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { CATALOG, DEFAULT_RULE_CONTEXT, type RuleCode } from '../../src/qc/catalog.js';
import type { DocumentClass } from '../../src/qc/classify.js';
import type { LoanDocument, LoanFile } from '../../src/qc/fields.js';
import type { Finding } from '../../src/qc/finding.js';
import { analyseFile } from '../../src/qc/logical-documents.js';
import { tesseractOcr } from '../../src/qc/reading/document.js';
import { terminateOcr } from '../../src/qc/reading/ocr.js';
import { runRules } from '../../src/qc/rules/registry.js';
import { readWithoutTimeBudgets } from '../support/reading-budgets.js';
import { PACKAGES, type PackageSpec } from '../fixtures/defects.js';
import {
  renderPackage,
  type PackageFile,
  type PrintedDocument,
  type RenderedPackage,
} from '../fixtures/loan-package.js';

// One OCR worker, as before: the packages are read one at a time.
readWithoutTimeBudgets({ ocrWorkers: 1 });
test.after.always(() => terminateOcr());

const RECALL_FLOOR = 0.95;
const PRECISION_FLOOR = 0.95;

// Each package is rendered once, each distinct file (name and bytes) analysed once: most packages share
// most of their documents with the clean one, and OCR is the slow part.
const rendered = new Map<string, Promise<RenderedPackage>>();
const analysed = new Map<string, ReturnType<typeof analyseFile>>();

function render(spec: PackageSpec): Promise<RenderedPackage> {
  let r = rendered.get(spec.name);
  if (!r) rendered.set(spec.name, (r = renderPackage(spec.build())));
  return r;
}

function analyse(file: PackageFile): ReturnType<typeof analyseFile> {
  const key = `${file.filename}:${createHash('sha256').update(file.bytes).digest('hex')}`;
  let a = analysed.get(key);
  if (!a) analysed.set(key, (a = analyseFile(file.filename, file.mime, file.bytes, tesseractOcr)));
  return a;
}

interface Outcome {
  spec: PackageSpec;
  loan: LoanFile;
  findings: Finding[];
  codes: RuleCode[];
}

const outcomes = new Map<string, Promise<Outcome>>();

/** The engine on one package: every file analysed in package order, then the rules over the loan file. */
function outcomeOf(spec: PackageSpec): Promise<Outcome> {
  let o = outcomes.get(spec.name);
  if (!o) {
    o = (async () => {
      const { files } = await render(spec);
      const loan: LoanFile = { documents: [], unreadable: [] };
      for (const file of files) {
        const { documents, unreadable } = await analyse(file);
        loan.documents.push(...documents);
        if (unreadable !== null) loan.unreadable.push({ filename: file.filename, reason: unreadable });
      }
      const findings = runRules(loan, DEFAULT_RULE_CONTEXT);
      return { spec, loan, findings, codes: [...new Set(findings.map((f) => f.code as RuleCode))].sort() };
    })();
    outcomes.set(spec.name, o);
  }
  return o;
}

function packageNamed(name: string): PackageSpec {
  const spec = PACKAGES.find((p) => p.name === name);
  if (!spec) throw new Error(`no package ${name}`);
  return spec;
}

test('the clean package gives no finding at all', async (t) => {
  const { findings } = await outcomeOf(packageNamed('clean'));
  t.deepEqual(
    findings.map((f) => `${f.key}: ${f.summary}`),
    [],
  );
});

test(
  'the clean package in its variants (one-file Note and Deed, cover sheet, printed URLA, scans) ' + 'gives no finding',
  async (t) => {
    t.timeout(600_000);
    const { findings } = await outcomeOf(packageNamed('clean-variants'));
    t.deepEqual(
      findings.map((f) => `${f.key}: ${f.summary}`),
      [],
    );
  },
);

test('every catalog code is exercised by at least one package, and at least 40 packages are generated', (t) => {
  const exercised = new Set(PACKAGES.flatMap((p) => p.expected));
  t.deepEqual(
    CATALOG.map((r) => r.code).filter((code) => !exercised.has(code)),
    [],
  );
  t.true(PACKAGES.length >= 40, `${PACKAGES.length} packages`);
  t.is(new Set(PACKAGES.map((p) => p.name)).size, PACKAGES.length, 'package names are unique');
});

test(
  `the engine finds the expected codes in every package: recall ≥ ${RECALL_FLOOR}, precision ≥ ` + `${PRECISION_FLOOR}`,
  async (t) => {
    t.timeout(900_000);
    const results: Outcome[] = [];
    // One package at a time: OCR has one worker, and the rendering of the next overlaps nothing useful.
    for (const spec of PACKAGES) results.push(await outcomeOf(spec));

    const perCode = new Map<string, { expected: number; tp: number; fn: string[]; fp: string[] }>(
      CATALOG.map((r) => [r.code, { expected: 0, tp: 0, fn: [], fp: [] }]),
    );
    let tp = 0;
    let fn = 0;
    let fp = 0;
    const mismatches: string[] = [];
    for (const { spec, codes, findings } of results) {
      const expected = new Set(spec.expected);
      const found = new Set(codes);
      for (const code of expected) {
        const row = perCode.get(code)!;
        row.expected++;
        if (found.has(code)) {
          tp++;
          row.tp++;
        } else {
          fn++;
          row.fn.push(spec.name);
        }
      }
      for (const code of found) {
        if (expected.has(code)) continue;
        fp++;
        perCode.get(code)?.fp.push(spec.name);
      }
      if (codes.join() !== [...expected].sort().join()) {
        const extra = findings
          .filter((f) => !expected.has(f.code as RuleCode))
          .map((f) => `    + ${f.key}: ${f.summary}`);
        mismatches.push(
          `  ${spec.name}: expected [${[...expected].sort().join(', ')}], found [${codes.join(', ')}]`,
          ...extra,
        );
      }
    }
    const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);

    t.log(`${results.length} packages; (package, code) pairs: TP ${tp}, FN ${fn}, FP ${fp}`);
    t.log(`recall ${recall.toFixed(4)}, precision ${precision.toFixed(4)}`);
    t.log(table(perCode));
    if (mismatches.length > 0) t.log(`packages whose codes differ from the expected ones:\n${mismatches.join('\n')}`);

    t.true(recall >= RECALL_FLOOR, `recall ${recall.toFixed(4)} < ${RECALL_FLOOR}`);
    t.true(precision >= PRECISION_FLOOR, `precision ${precision.toFixed(4)} < ${PRECISION_FLOOR}`);
  },
);

function table(perCode: Map<string, { expected: number; tp: number; fn: string[]; fp: string[] }>): string {
  const lines = ['code      expected  found  missed (FN)                      false positives (FP)'];
  for (const [code, row] of perCode) {
    const missed = row.fn.length > 0 ? row.fn.join(', ') : '-';
    const extra = row.fp.length > 0 ? row.fp.join(', ') : '-';
    lines.push(
      `${code.padEnd(10)}${String(row.expected).padStart(8)}${String(row.tp).padStart(7)}  ` +
        `${missed.padEnd(33)}${extra}`,
    );
  }
  return lines.join('\n');
}

// ---- Field by field: what the generator printed is what each extractor reads ------------------------------

/** Printed field → what was read, for every field of a printed document that was not read exactly. */
function differences(printed: PrintedDocument, documents: readonly LoanDocument[]): string[] {
  const doc = documents.find((d) => d.filename === printed.filename && d.documentClass === printed.documentClass);
  if (!doc)
    return [
      `${printed.filename}: no ${printed.documentClass} found (found ${
        documents
          .filter((d) => d.filename === printed.filename)
          .map((d) => d.documentClass)
          .join(', ') || 'nothing'
      })`,
    ];
  const fields = doc.fields as Record<string, unknown>;
  const out: string[] = [];
  for (const [name, expected] of Object.entries(printed.fields)) {
    const got = fields[name];
    if (name === 'fees') {
      const fees = (got as { section: string; name: string; amount: number }[] | undefined)?.map(
        ({ section, name: n, amount }) => ({ section, name: n, amount }),
      );
      if (JSON.stringify(fees) !== JSON.stringify(expected.value))
        out.push(`${printed.filename} fees: printed ${JSON.stringify(expected.value)}, read ${JSON.stringify(fees)}`);
      continue;
    }
    const read = got as { value: unknown; page: number } | undefined;
    if (!read || JSON.stringify(read.value) !== JSON.stringify(expected.value) || read.page !== expected.page) {
      out.push(
        `${printed.filename} ${name}: printed ${JSON.stringify(expected.value)} on ` +
          `p.${expected.page}, read ${read ? `${JSON.stringify(read.value)} on p.${read.page}` : 'nothing'}`,
      );
    }
  }
  return out;
}

async function fieldCheck(t: ExecutionContext, documentClass: DocumentClass, packages: string[]): Promise<void> {
  t.timeout(600_000);
  let checked = 0;
  const wrong: string[] = [];
  for (const name of packages) {
    const spec = packageNamed(name);
    const [{ printed }, { loan }] = await Promise.all([render(spec), outcomeOf(spec)]);
    for (const doc of printed.filter((p) => p.documentClass === documentClass)) {
      checked += Object.keys(doc.fields).length;
      wrong.push(...differences(doc, loan.documents).map((d) => `${name}: ${d}`));
    }
  }
  t.true(checked > 0, `no ${documentClass} field printed`);
  t.deepEqual(wrong, []);
}

// The clean package has every class as a text-layer PDF; its variants add the printed URLA, the Note and
// Deed of Trust in one file, a cover sheet before the CD and scanned pay stubs and bank statement (OCR);
// a revised Loan Estimate, a signed-for Loan Estimate and a tolerance cure come from defect packages.
const FIELD_PACKAGES: [DocumentClass, string[]][] = [
  ['closing_disclosure', ['clean', 'clean-variants', 'TRD-008-cure-short', 'TRD-005-prepayment-penalty-added']],
  ['loan_estimate', ['clean', 'TRD-009-rate-lock-expired']],
  ['note', ['clean', 'clean-variants', 'DOC-005-unsigned-note', 'NTE-004-prepayment']],
  ['security_instrument', ['clean', 'clean-variants', 'combo-signature-credit-employer']],
  ['urla', ['clean', 'clean-variants']],
  ['pay_stub', ['clean', 'clean-variants']],
  ['w2', ['clean']],
  ['bank_statement', ['clean', 'clean-variants']],
  ['credit_report', ['clean']],
  ['appraisal', ['clean']],
];

for (const [documentClass, packages] of FIELD_PACKAGES) {
  test(`the ${documentClass} extractor reads every field the generated documents print, on the page printed`, (t) =>
    fieldCheck(t, documentClass, packages));
}
