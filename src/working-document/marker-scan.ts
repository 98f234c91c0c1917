// Whether uploaded PDF bytes can hold our working-document marker, found without parsing the PDF. Every
// PDF of every create and addition is checked for the marker (marker.ts), and parsing each with pdf-lib
// cost the worker's main thread milliseconds a file (seconds for a crafted one: pdf-lib inflates every
// object stream without a limit). The marker is an entry of the document information dictionary, named
// /LoanReviewWorkingDocument: it stands in the file's bytes as written, unless the dictionary was put in
// an object stream (PDF 1.5; pdf-lib writes them, and so may a viewer that saves a filled form), which
// is Flate-compressed. So the name is looked for in the bytes and in each object stream, inflated within
// a budget. pdf-lib also inflates every cross-reference stream as it parses, so those are measured too
// (one can name no marker, but a 1 MiB file's can inflate to a GiB). The budget charges what a stream
// inflates to, what it inflates from (a stream of empty deflate blocks inflates to nothing, slowly) and
// the time: small streams on the event loop (a round trip to libuv's pool for each of a file's small
// streams is one more turn of a busy event loop), larger ones on the pool. A PDF past the budget is no
// working document of ours: a report of a few pages holds a few hundred KiB of objects.
import { promisify } from 'node:util';
import { constants, inflate, inflateSync } from 'node:zlib';

const inflated = promisify(inflate);

/**
 * `present`: the name appears, in the bytes or in an object stream; only a parse can say whether it is a
 * valid marker. `absent`: it does not, or the file cannot be one of ours: its object streams inflate past
 * the budget, or one cannot be measured (encoded otherwise than by Flate alone, as pdf-lib and viewers
 * write them; damaged; a dictionary not found around its `/ObjStm`), which a parser would decode without
 * a limit. Every object stream is measured before `present` is said, so a file that names the marker
 * cannot make the parse that follows inflate a bomb.
 */
export type MarkerScan = 'absent' | 'present';

/** Bytes all of a file's object and cross-reference streams may inflate to before it is judged not ours. */
export const OBJECT_STREAMS_MAX_INFLATED_BYTES = 32 * 1024 * 1024;
/** Bytes those streams may take in the file, compressed: inflating costs time per byte read, not written. */
export const OBJECT_STREAMS_MAX_ENCODED_BYTES = 4 * 1024 * 1024;
/** The longest a scan may take; past it the file is judged not ours. */
export const SCAN_MAX_MS = 2_000;
/** Object streams looked at before the file is judged not to be ours (pdf-lib puts 50 objects in each). */
const MAX_OBJECT_STREAMS = 10_000;
/** How far from `/ObjStm` its object's start and its stream's keyword are looked for: a dictionary is short. */
const DICTIONARY_WINDOW = 4096;
/** Bytes of a file's streams inflated on the event loop, the rest on libuv's pool… */
const ON_LOOP_INFLATED_BYTES = 1024 * 1024;
/** …and only streams this small in the file (1.5–3 ms each at most, however they inflate). */
const ON_LOOP_ENCODED_BYTES = 64 * 1024;
/**
 * One past the limit: a stream that fills it exactly is still within it. Z_SYNC_FLUSH: a stream cut
 * short still gives what it holds, as a parser would read it.
 */
const options = (limit: number) => ({ maxOutputLength: limit + 1, finishFlush: constants.Z_SYNC_FLUSH });

/**
 * `data` inflated, or null when it inflates past `limit`; on the event loop while `onLoop` bytes allow.
 * Rejects on damaged data.
 */
async function inflateWithin(data: Buffer, limit: number, onLoop: number): Promise<Buffer | null> {
  const here = data.length <= ON_LOOP_ENCODED_BYTES ? Math.min(limit, onLoop) : 0;
  if (here > 0) {
    try {
      const out = inflateSync(data, options(here));
      if (out.length <= here) return out;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw err;
    }
    if (here === limit) return null;
  }
  const out = await inflated(data, options(limit));
  return out.length > limit ? null : out;
}

/** The same bytes as a Buffer (for its indexOf and includes), not a copy. */
const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** What a scan may spend: inflated and encoded bytes of the streams it measures, and time. */
export interface ScanBudget {
  maxInflated: number;
  maxEncoded: number;
  maxMs: number;
}

const BUDGET: ScanBudget = {
  maxInflated: OBJECT_STREAMS_MAX_INFLATED_BYTES,
  maxEncoded: OBJECT_STREAMS_MAX_ENCODED_BYTES,
  maxMs: SCAN_MAX_MS,
};

/** Where the next stream pdf-lib inflates as it parses is named: `/ObjStm` or `/XRef` (not `/XRefStm`). */
function nextParsedStream(pdf: Buffer, from: number): number {
  const objStm = pdf.indexOf('/ObjStm', from);
  let xref = pdf.indexOf('/XRef', from);
  // `/XRefStm` is a trailer's pointer to a stream, not a stream's type: the stream itself names /XRef.
  while (xref >= 0 && /[A-Za-z0-9]/.test(String.fromCharCode(pdf[xref + 5] ?? 0x20)))
    xref = pdf.indexOf('/XRef', xref + 5);
  if (objStm < 0) return xref;
  return xref < 0 ? objStm : Math.min(objStm, xref);
}

export async function scanForMarker(
  bytes: Uint8Array,
  name: string,
  limits: Partial<ScanBudget> = {},
): Promise<MarkerScan> {
  const { maxInflated, maxEncoded, maxMs } = { ...BUDGET, ...limits };
  const deadline = performance.now() + maxMs;
  const pdf = bufferOf(bytes);
  const needle = `/${name}`;
  let found = pdf.includes(needle);
  let budget = maxInflated;
  let encoded = maxEncoded;
  let onLoop = ON_LOOP_INFLATED_BYTES;
  let from = 0;
  for (let count = 0; ; count++) {
    const at = nextParsedStream(pdf, from);
    if (at < 0) break;
    if (count === MAX_OBJECT_STREAMS || performance.now() > deadline) return 'absent';
    const stream = objectStreamAt(pdf, at);
    // A stream this scan cannot measure (encoded otherwise, a dictionary it cannot delimit) is one a
    // parser might still inflate: no file of ours has one.
    if (!stream) return 'absent';
    from = stream.end;
    encoded -= stream.data.length;
    if (encoded < 0) return 'absent';
    let data: Buffer | null = stream.data;
    try {
      for (let n = 0; n < stream.flates; n++) {
        data = await inflateWithin(data, budget, onLoop);
        if (!data || performance.now() > deadline) return 'absent';
        onLoop = Math.max(0, onLoop - data.length);
      }
    } catch {
      // Past the budget (ERR_BUFFER_TOO_LARGE), or damaged: what a more lenient decoder would make of
      // damaged data is not measured, and a stream of ours is never damaged.
      return 'absent';
    }
    budget -= data.length;
    found ||= data.includes(needle);
  }
  return found ? 'present' : 'absent';
}

/**
 * The encoded data of the stream whose dictionary holds `/ObjStm` or `/XRef` at `at`, how many times it is
 * Flate-compressed and where it ends; null when no stream's dictionary can be found around `at` or the
 * stream is encoded otherwise than by Flate alone.
 */
function objectStreamAt(pdf: Buffer, at: number): { data: Buffer; flates: number; end: number } | null {
  const before = Math.max(0, at - DICTIONARY_WINDOW);
  const open = pdf.subarray(before, at).lastIndexOf('obj');
  const keyword = pdf.subarray(at, at + DICTIONARY_WINDOW).indexOf('stream');
  if (open < 0 || keyword < 0) return null;
  const dictionary = pdf.toString('latin1', before + open, at + keyword);
  // The dictionary ends before its stream: anything between (another object) means this was not one.
  if (dictionary.includes('endobj') || !dictionary.includes('>>')) return null;
  if (/\/DecodeParms|\/DP\b/.test(dictionary)) return null;
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+)/.exec(dictionary)?.[1];
  const filters = filter === undefined ? [] : (filter.match(/\/[^\s/<>[\]()]+/g) ?? []);
  if (filters.some((f) => f !== '/FlateDecode' && f !== '/Fl')) return null;
  let start = at + keyword + 'stream'.length;
  if (pdf[start] === 0x0d) start++;
  if (pdf[start] === 0x0a) start++;
  // The stream's length when given directly, else up to `endstream`: an indirect /Length would need the
  // cross-reference table, and compressed data that runs past its end still inflates to what it holds.
  const direct = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dictionary);
  let end = direct ? start + Number(direct[1]) : -1;
  if (end < start || end > pdf.length) end = pdf.indexOf('endstream', start);
  if (end < 0) end = pdf.length;
  return { data: pdf.subarray(start, end), flates: filters.length, end };
}
