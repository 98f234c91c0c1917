// The working-document marker (decisions.md, "Working document",
// "Flattened and misdirected working documents"): only the service can stamp it, it survives a filled
// form being saved again, and a PDF without its fields is recognised as flattened.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import {
  inspectWorkingDocument,
  markerValue,
  readWorkingDocumentFields,
  verifyMarker,
} from '../../../src/working-document/marker.js';
import { fillWorkingDocument, pdf, png, workingDocument } from '../../support/fixtures.js';

const secret = 'a-server-secret-of-at-least-32-characters';
const mark = { reviewId: randomUUID(), releaseId: randomUUID() };

test('a marker verifies under the secret that made it, and under no other', (t) => {
  const value = markerValue(mark, secret);
  t.deepEqual(verifyMarker(value, secret), mark);
  t.is(verifyMarker(value, `${secret}x`), null, 'another secret');
  t.is(
    verifyMarker(value.replace(mark.reviewId, randomUUID()), secret),
    null,
    'another review id under the same signature',
  );
  // The signature's first character changed: a fixed ending ("AA") is a random signature's own one time in 1,024.
  const signed = value.lastIndexOf('.') + 1;
  const altered = `${value.slice(0, signed)}${value[signed] === 'A' ? 'B' : 'A'}${value.slice(signed + 1)}`;
  t.is(verifyMarker(altered, secret), null, 'an altered signature');
  t.is(verifyMarker('wd1.garbage', secret), null);
});

test(
  'after a rotation, a marker made with the secret replaced verifies under the ring that keeps ' +
    'it, and a new one under the new secret',
  (t) => {
    const rotated = `${secret}-rotated`;
    t.deepEqual(verifyMarker(markerValue(mark, secret), [rotated, secret]), mark);
    t.deepEqual(verifyMarker(markerValue(mark, rotated), [rotated, secret]), mark);
    t.is(verifyMarker(markerValue(mark, secret), [rotated]), null, 'retired, the old secret is not accepted');
  },
);

test('a working document is recognised with its review, release and fields', async (t) => {
  const found = await inspectWorkingDocument(
    await workingDocument({ ...mark, secret, findings: ['APR-001', 'DOC-011'] }),
    secret,
  );
  // Three fields per finding: decision, comment, cure document.
  t.deepEqual(found, { ...mark, fieldCount: 6 });
});

test('a filled and saved-again working document keeps its marker', async (t) => {
  const doc = await PDFDocument.load(await workingDocument({ ...mark, secret }));
  doc.getForm().getDropdown('finding.DOC-011.decision').select('cleared');
  const filled = Buffer.from(await doc.save({ useObjectStreams: true }));
  t.deepEqual(await inspectWorkingDocument(filled, secret), { ...mark, fieldCount: 3 });
});

test('a flattened working document is recognised, with no fields', async (t) => {
  t.deepEqual(await inspectWorkingDocument(await workingDocument({ ...mark, secret, flattened: true }), secret), {
    ...mark,
    fieldCount: 0,
  });
});

test('ordinary PDFs, forged markers and non-PDF bytes are not working documents', async (t) => {
  t.is(await inspectWorkingDocument(await pdf(), secret), null);
  t.is(
    await inspectWorkingDocument(
      await workingDocument({ ...mark, secret: 'somebody-elses-secret-of-32-characters' }),
      secret,
    ),
    null,
  );
  t.is(await inspectWorkingDocument(png, secret), null);
  t.is(await inspectWorkingDocument(Buffer.from('%PDF-1.7\nnot really'), secret), null);
});

test(
  'finding keys naming a file (dots, spaces, @) round-trip through the form fields of a ' + 'working document',
  async (t) => {
    const keys = ['DOC-005:note.pdf', 'TRD-004:revised le.pdf@2026-03-02', 'DOC-011'];
    const filled = await fillWorkingDocument(await workingDocument({ ...mark, secret, findings: keys }), {
      'DOC-005:note.pdf': { decision: 'cleared', comment: 'signed copy in file' },
      'TRD-004:revised le.pdf@2026-03-02': { decision: 'disputed' },
    });
    const fields = await readWorkingDocumentFields(filled);
    t.is(fields.get('finding.DOC-005:note.pdf.decision'), 'cleared');
    t.is(fields.get('finding.DOC-005:note.pdf.comment'), 'signed copy in file');
    t.is(fields.get('finding.TRD-004:revised le.pdf@2026-03-02.decision'), 'disputed');
    t.deepEqual(
      [...fields.keys()].filter((name) => name.endsWith('.decision')).sort(),
      keys.map((k) => `finding.${k}.decision`).sort(),
    );
  },
);
