// docs/api.md's curl commands, run as a reader runs them, against the stack `npm test` started. Each block
// runs in a folder holding the files it sends, with $KEY, $REVIEW_ID, $ENDPOINT_ID and $EVENT_ID of an
// organization of its own (a live review released with its report, a webhook endpoint, an announced
// event), and the guide's hosts pointed at this stack and at a local file host. Every answer is a success
// the OpenAPI document describes, with the status the guide names above the command.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ReportSchema } from '../../src/reviews/report.js';
import { ReviewSchema } from '../../src/reviews/review.js';
import { call, form } from '../support/http.js';
import { documentValidator } from '../support/openapi-validator.js';
import { registerEndpoint, waitForReview } from '../support/reviews.js';
import { apiRoot, closeShared, db, newOrganization, stack } from '../support/stack.js';
import { sharedSources } from '../support/source-server.js';
import { fillWorkingDocument, pdf, zip } from '../support/fixtures.js';

test.after.always(closeShared);

const GUIDE = new URL('../../docs/api.md', import.meta.url);
/** The hosts the guide's examples name, and what stands for them here. */
const GUIDE_API = 'http://127.0.0.1:8080';
const GUIDE_WEBHOOK_HOST = 'https://hooks.lender.example';
const GUIDE_FILE_HOST = 'https://files.example.com';
/** A public address: the service refuses private ones, and registering does not call it. */
const WEBHOOK_HOST = 'https://93.184.216.34';

interface CommandBlock {
  line: number;
  script: string;
  /** The status the paragraph above the block names ("→ `201`"), if it names one. */
  status: number | undefined;
}

/** The guide's shell blocks that call the API, with the paragraph that introduces each. */
function curlBlocks(markdown: string): CommandBlock[] {
  const lines = markdown.split('\n');
  const blocks: CommandBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(?:sh|bash)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const indent = fence[1]!.length;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    const script = lines
      .slice(i + 1, end)
      .map((l) => l.slice(indent))
      .join('\n');
    let start = i - 1;
    while (start >= 0 && lines[start]!.trim() === '') start--;
    const paragraph: string[] = [];
    for (; start >= 0 && lines[start]!.trim() !== ''; start--) paragraph.unshift(lines[start]!);
    const named = /→ `(\d{3})`/.exec(paragraph.join(' '));
    if (/^curl /m.test(script)) blocks.push({ line: i + 1, script, status: named ? Number(named[1]) : undefined });
    i = end;
  }
  return blocks;
}

const CFPB = new URL('../corpus/cfpb/', import.meta.url);
const closingDisclosure = readFileSync(new URL('cd_sample_fixed_rate_h25b.pdf', CFPB));
const loanEstimate = readFileSync(new URL('le_sample_fixed_rate_h24b.pdf', CFPB));
const packageZip = zip([
  { name: 'loan-estimate.pdf', data: loanEstimate },
  { name: 'closing-disclosure.pdf', data: closingDisclosure },
]);

/** This process's file host, serving the package the guide's signed URL names. */
const fileHost = Promise.all([sharedSources(), packageZip]).then(([{ server }, data]) => {
  server.file('/LN-1002.zip', data, 'application/zip');
  return `https://127.0.0.1:${server.port}`;
});

/** The report PDF of a released review with its first finding marked cleared: the working document sent back. */
async function markedReport(key: string, reviewId: string): Promise<Buffer> {
  const res = await call(stack.apiUrl, 'GET', `/reviews/${reviewId}/report`, { key });
  if (res.status !== 200) throw new Error(`report: ${res.status} ${res.text}`);
  const report = ReportSchema.parse(res.body);
  const pdfBytes = Buffer.from(await (await fetch(report.report_pdf_url!)).arrayBuffer());
  const first = report.issues[0];
  return fillWorkingDocument(pdfBytes, first ? { [first.id]: { decision: 'cleared' } } : {});
}

/** The id of the review's first event, once it is recorded (just after the review is released). */
async function announced(reviewId: string): Promise<string> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const [row] = await db()<{ id: string }[]>`select id from events where review_id = ${reviewId} limit 1`;
    if (row) return row.id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no event of review ${reviewId} was recorded`);
}

/** An organization with what the guide's variables name, and a folder with the files its commands send. */
async function reader(): Promise<{ env: Record<string, string>; folder: string }> {
  const org = await newOrganization();
  const key = org.liveKey;
  const created = await call(stack.apiUrl, 'POST', '/reviews', {
    key,
    form: form([{ name: 'cd.pdf', data: closingDisclosure, type: 'application/pdf' }]),
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  const reviewId = ReviewSchema.parse(created.body).review_id;
  await waitForReview(key, reviewId, (r) => r.status === 'completed');
  const endpoint = await registerEndpoint(key, `${WEBHOOK_HOST}/hooks/loan-review`);
  const eventId = await announced(reviewId);
  const folder = await mkdtemp(path.join(tmpdir(), 'api-guide-'));
  const placed: Record<string, Buffer> = {
    'package.zip': await packageZip,
    'loan-package.zip': await packageZip,
    'cd.pdf': closingDisclosure,
    'note.pdf': await pdf('Note'),
    'cure-letter.pdf': await pdf('Cure letter'),
    'report-marked.pdf': await markedReport(key, reviewId),
  };
  for (const [name, data] of Object.entries(placed)) await writeFile(path.join(folder, name), data);
  return {
    folder,
    env: { KEY: key, REVIEW_ID: reviewId, ENDPOINT_ID: endpoint.id, EVENT_ID: eventId },
  };
}

interface Answer {
  method: string;
  url: URL;
  status: number;
  body: string;
}

/** Runs a block in bash as written, each curl's answer kept (curl itself, with `-w` and `-o` added). */
async function run(script: string, env: Record<string, string>, folder: string, fileHost: string): Promise<Answer[]> {
  const pointed = script
    .replaceAll(GUIDE_API, apiRoot)
    .replaceAll(GUIDE_WEBHOOK_HOST, WEBHOOK_HOST)
    .replaceAll(GUIDE_FILE_HOST, fileHost);
  const wrapper =
    'set -e\nn=0\n' +
    `curl() { n=$((n+1)); command curl -sS -o "answer-$n.body" -w '%{method} %{http_code} %{url_effective}\\n' "$@"; }\n`;
  const { stdout } = await promisify(execFile)('bash', ['-c', wrapper + pointed], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 60_000,
  });
  const answers: Answer[] = [];
  for (const [i, line] of stdout.trim().split('\n').entries()) {
    const [method, status, url] = line.split(' ');
    const body = await readFile(path.join(folder, `answer-${i + 1}.body`), 'utf8').catch(() => '');
    answers.push({ method: method!, status: Number(status), url: new URL(url!), body });
  }
  return answers;
}

const blocks = curlBlocks(readFileSync(GUIDE, 'utf8'));

test('the guide has a command for every endpoint', (t) => {
  const called = blocks.map((b) => b.script).join('\n');
  for (const route of [
    /-F documents=@\S+ .*\n?.*\/v1\/reviews\s*$/m,
    /'[^']*\/v1\/reviews\?/,
    /\/v1\/reviews\/\$REVIEW_ID\s*$/m,
    /\/v1\/reviews\/\$REVIEW_ID\/report/,
    /\/v1\/reviews\/\$REVIEW_ID\/documents/,
    /-X DELETE [^\n]*\/v1\/reviews\/\$REVIEW_ID/,
    /\/v1\/webhook-endpoints\s*$/m,
    /\/v1\/webhook-endpoints\/\$ENDPOINT_ID\/rotate-secret/,
    /\/v1\/webhook-endpoints\/\$ENDPOINT_ID\/deliveries\?/,
    /-d "\{\\"event_id[^\n]*\n?[^\n]*\/v1\/webhook-endpoints\/\$ENDPOINT_ID\/deliveries/,
    /-X DELETE [^\n]*\/v1\/webhook-endpoints\/\$ENDPOINT_ID/,
    /\/v1\/events\?/,
    /\/v1\/openapi\.json/,
  ]) {
    t.regex(called, route);
  }
});

for (const block of blocks) {
  const title = `docs/api.md line ${block.line}: ${block.script.split('\n')[0]!.slice(0, 80)}`;
  test(title, async (t) => {
    const { env, folder } = await reader();
    try {
      const answers = await run(block.script, env, folder, await fileHost);
      t.is(answers.length, (block.script.match(/^\s*curl /gm) ?? []).length, 'every command answered');
      const validator = await documentValidator(apiRoot);
      for (const a of answers) {
        const where = `${a.method} ${a.url.pathname} → ${a.status}: ${a.body.slice(0, 300)}`;
        t.true(a.status >= 200 && a.status < 300, where);
        if (a.url.pathname === '/v1/openapi.json') t.like(JSON.parse(a.body), { openapi: '3.1.0' });
        else t.notThrows(() => validator.check(a.method, a.url.pathname.slice(3), a.status, a.body), where);
      }
      if (block.status !== undefined) t.is(answers[0]!.status, block.status, 'the status the guide names');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
}
