// POST /v1/reviews with application/json: documents given as signed HTTPS URLs are fetched by the
// workflow's ingest (the address guard, no redirects, a total timeout) and unpacked exactly like uploads.
// Any source that cannot be fetched is 422 invalid_request naming documents[i].url, and nothing is kept.
import test from 'ava';
import { ReviewSchema } from '../../src/reviews/review.js';
import { keysUnder, leftUnder, sha256 as sha, storedDocuments } from '../support/objects.js';
import { call, errorCode, errorMessage as message, errorParam } from '../support/http.js';
import { closeShared, db, newOrganization, stack, temporalClient } from '../support/stack.js';
import { sharedSources } from '../support/source-server.js';
import { elf, pdf, png, zip } from '../support/fixtures.js';

const { server: files } = await sharedSources();
test.after.always(closeShared);

/** The refused create's workflow (found by organization) left no review row and no object of its own. */
async function nothingKept(t: import('ava').ExecutionContext, organizationId: string): Promise<void> {
  t.is(
    (await db()`select count(*)::int as n from reviews where organization_id = ${organizationId}`)[0]!.n,
    0,
    'no review row',
  );
  const client = await temporalClient();
  const ids: string[] = [];
  for (let i = 0; i < 50 && ids.length === 0; i++) {
    for await (const wf of client.workflow.list({ query: `OrgId = '${organizationId}'` })) ids.push(wf.workflowId);
    if (ids.length === 0) await new Promise((r) => setTimeout(r, 100));
  }
  t.is(ids.length, 1, 'the refused create ran in one workflow');
  for (const id of ids) {
    t.deepEqual(await keysUnder(`uploads/sources/${id}/`), [], 'no fetched source left');
    t.deepEqual(await keysUnder(`uploads/members/${id}/`), [], 'no unpacked member left');
    t.deepEqual(await keysUnder(`documents/${id}/`), [], 'no document object');
  }
}

test('documents given as signed URLs are fetched, unpacked and stored like uploads', async (t) => {
  const org = await newOrganization();
  const cd = await pdf('Closing Disclosure');
  const note = await pdf('Note');
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    json: {
      reference_id: 'LN-url-1',
      documents: [
        { filename: 'cd.pdf', content_type: 'application/pdf', url: files.file('/cd.pdf', cd) },
        { filename: 'scan.png', content_type: 'image/png', url: files.file('/scan.png', png) },
        {
          filename: 'package.zip',
          content_type: 'application/zip',
          url: files.file(
            '/p.zip',
            await zip([
              { name: 'note.pdf', data: note },
              { name: 'cd-copy.pdf', data: cd },
            ]),
          ),
        },
      ],
    },
  });
  t.is(res.status, 201, res.text);
  const review = ReviewSchema.parse(res.body);
  t.like(review, { status: 'processing', document_count: 3, reference_id: 'LN-url-1', sandbox: false });
  const rows =
    await db()`select filename, source, source_detail, sha256 from documents where review_id = ${review.review_id}`;
  t.deepEqual(
    rows.map((r) => [r.filename, r.source, r.source_detail, r.sha256]).sort(),
    [
      ['cd.pdf', 'url', null, sha(cd)],
      ['scan.png', 'url', null, sha(png)],
      ['note.pdf', 'archive_member', 'package.zip', sha(note)],
    ].sort(),
  );
  t.deepEqual(await storedDocuments(review.review_id), [cd, note, png].map(sha).sort());
  t.deepEqual(
    await leftUnder(`uploads/sources/${review.review_id}/`),
    [],
    'the fetched package was removed; the fetched documents are kept',
  );
  t.deepEqual(await leftUnder(`uploads/members/${review.review_id}/`), []);
});

test('a sandbox key fetches its sources over the same path', async (t) => {
  const org = await newOrganization();
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.sandboxKey,
    json: {
      documents: [
        { filename: 'cd.pdf', content_type: 'application/pdf', url: files.file('/sandbox.pdf', await pdf('sandbox')) },
      ],
    },
  });
  t.is(res.status, 201, res.text);
  t.like(ReviewSchema.parse(res.body), { sandbox: true, document_count: 1 });
});

const unfetchable: [string, () => Promise<string>, RegExp][] = [
  ['a URL answering 404', async () => files.url('/nothing-here.pdf'), /documents\[1\]\.url: answered HTTP 404/],
  [
    'a redirect',
    async () => files.handle('/go.pdf', (_q, r) => r.writeHead(301, { location: files.url('/cd.pdf') }).end()),
    /documents\[1\]\.url: answered with a redirect/,
  ],
  [
    'a private address',
    async () => 'https://192.168.1.20/loan.pdf?sig=1',
    /documents\[1\]\.url: points at a non-public address/,
  ],
  [
    'the cloud metadata address',
    async () => 'https://169.254.169.254/latest/meta-data/iam',
    /documents\[1\]\.url: points at a non-public address/,
  ],
  ['plain http', async () => `http://127.0.0.1:${files.port}/cd.pdf`, /documents\[1\]\.url: must be an https:\/\/ URL/],
  [
    'an internal host name',
    async () => 'https://fileserver.corp/loan.pdf',
    /documents\[1\]\.url: names an internal host/,
  ],
  [
    'a server that stalls past the timeout',
    async () => files.handle('/stall.pdf', (_q, r) => void r.writeHead(200).write('%PDF')),
    /documents\[1\]\.url: sent nothing for 4 s/,
  ],
];

for (const [title, url, pattern] of unfetchable) {
  test(`${title} is 422 invalid_request naming the url (in its message and param), and nothing is kept`, async (t) => {
    const org = await newOrganization();
    const res = await call(stack.apiUrl, 'POST', '/reviews', {
      key: org.liveKey,
      json: {
        reference_id: 'LN-unfetchable',
        documents: [
          { filename: 'good.pdf', content_type: 'application/pdf', url: files.file('/good.pdf', await pdf('good')) },
          { filename: 'bad.pdf', content_type: 'application/pdf', url: await url() },
        ],
      },
    });
    t.is(res.status, 422, res.text);
    t.is(errorCode(res), 'invalid_request');
    t.regex(message(res), pattern);
    // Named in param too, as the worker that fetched it refused it.
    t.is(errorParam(res), 'documents[1].url');
    await nothingKept(t, org.id);
  });
}

test('a fetched package is checked like an uploaded one: a member of the wrong type refuses it', async (t) => {
  const org = await newOrganization();
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    json: {
      documents: [
        {
          filename: 'package.zip',
          content_type: 'application/zip',
          url: files.file('/bad.zip', await zip([{ name: 'setup.pdf', data: elf }])),
        },
      ],
    },
  });
  t.is(res.status, 400, res.text);
  t.is(errorCode(res), 'document_unsupported');
  t.regex(message(res), /package\.zip: setup\.pdf/);
  await nothingKept(t, org.id);
});

test('an empty source is document_required', async (t) => {
  const org = await newOrganization();
  const res = await call(stack.apiUrl, 'POST', '/reviews', {
    key: org.liveKey,
    json: {
      documents: [
        { filename: 'blank.pdf', content_type: 'application/pdf', url: files.file('/blank.pdf', Buffer.alloc(0)) },
      ],
    },
  });
  t.is(res.status, 400, res.text);
  t.is(errorCode(res), 'document_required');
  t.regex(message(res), /blank\.pdf/);
  await nothingKept(t, org.id);
});
