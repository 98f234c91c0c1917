// Spans in OTLP's protobuf encoding (opentelemetry-proto, trace/v1 and collector/trace/v1), written as each
// span ends rather than when its batch is sent: a finished span then lives on as a hundred-odd bytes, not
// as the object graph a batch would keep (span, attributes, context, times) until the export, which a busy
// API promotes out of the young generation and collects at a cost. The fields written are those
// OpenTelemetry's own serializer writes (`ProtobufTraceSerializer`), decoded alike: the unit test decodes
// both and compares them.
import type { AttributeValue, Attributes, HrTime, SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

const VARINT = 0;
const FIXED64 = 1;
const LENGTH = 2;
const TWO_32 = 2 ** 32;

/** A growing buffer of protobuf fields; `begin`/`end` enclose a nested message and prefix its length. */
export class ProtoWriter {
  private buf: Buffer;
  private pos = 0;
  private readonly open: number[] = [];

  constructor(size = 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  get length(): number {
    return this.pos;
  }

  /** Back to `length` bytes written, nothing open: a record that failed half-way is taken back. */
  truncate(length: number): void {
    this.pos = length;
    this.open.length = 0;
  }

  /** What is written, not copied: valid until the next write. */
  view(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** An unsigned varint below 2^53 (lengths, tags, counts, enums). */
  varint(value: number): void {
    this.room(8);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  uint(field: number, value: number): void {
    this.tag(field, VARINT);
    this.varint(value);
  }

  bool(field: number, value: boolean): void {
    this.uint(field, value ? 1 : 0);
  }

  /** An int64: negative and unsafe integers as their 64-bit two's complement. */
  int64(field: number, value: number): void {
    if (value >= 0 && Number.isSafeInteger(value)) {
      this.uint(field, value);
      return;
    }
    this.tag(field, VARINT);
    this.room(10);
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  double(field: number, value: number): void {
    this.tag(field, FIXED64);
    this.room(8);
    this.pos = this.buf.writeDoubleLE(value, this.pos);
  }

  /** An hrtime ([seconds, nanoseconds]) as fixed64 nanoseconds since the epoch, exact past 2^53. */
  time(field: number, [seconds, nanos]: HrTime): void {
    this.tag(field, FIXED64);
    this.room(8);
    // seconds × 10^9 in two 16-bit halves of the seconds, each product below 2^46 and so exact.
    const high = Math.floor(seconds / 0x10000) * 1e9;
    const highWords = Math.floor(high / 0x10000);
    const rest = (high % 0x10000) * 0x10000 + (seconds % 0x10000) * 1e9 + nanos;
    const low = rest % TWO_32;
    this.buf.writeUInt32LE(low, this.pos);
    this.buf.writeUInt32LE((highWords + Math.floor(rest / TWO_32)) % TWO_32, this.pos + 4);
    this.pos += 8;
  }

  string(field: number, value: string): void {
    this.tag(field, LENGTH);
    const size = Buffer.byteLength(value);
    this.varint(size);
    this.room(size);
    this.pos += this.buf.write(value, this.pos, 'utf8');
  }

  /** Bytes given as hex (trace and span ids); its length is what the hex held, whatever it claims. */
  hex(field: number, value: string): void {
    const size = value.length >>> 1;
    if (size >= 0x80) {
      this.raw(field, Buffer.from(value, 'hex'));
      return;
    }
    this.tag(field, LENGTH);
    this.room(1 + size);
    const written = this.buf.write(value, this.pos + 1, size, 'hex');
    this.buf[this.pos] = written;
    this.pos += 1 + written;
  }

  raw(field: number | undefined, value: Uint8Array): void {
    if (field !== undefined) {
      this.tag(field, LENGTH);
      this.varint(value.length);
    }
    this.room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** Opens a nested message as `field`; one byte is kept for its length, the usual size. */
  begin(field: number): void {
    this.tag(field, LENGTH);
    this.room(1);
    this.open.push(this.pos);
    this.pos += 1;
  }

  end(): void {
    const at = this.open.pop();
    if (at === undefined) throw new Error('end() without begin()');
    const size = this.pos - at - 1;
    if (size < 0x80) {
      this.buf[at] = size;
      return;
    }
    let digits = 1;
    for (let v = size; v >= 0x80; v = Math.floor(v / 0x80)) digits++;
    this.room(digits - 1);
    this.buf.copyWithin(at + digits, at + 1, this.pos);
    const after = this.pos + digits - 1;
    this.pos = at;
    this.varint(size);
    this.pos = after;
  }
}

/** An `AnyValue`'s one field, as OpenTelemetry's serializer chooses it; nothing for null or undefined. */
function anyValue(w: ProtoWriter, value: unknown): void {
  if (typeof value === 'string') w.string(1, value);
  else if (typeof value === 'boolean') w.bool(2, value);
  else if (typeof value === 'number') {
    if (Number.isInteger(value)) w.int64(3, value);
    else w.double(4, value);
  } else if (value instanceof Uint8Array) w.raw(7, value);
  else if (Array.isArray(value)) {
    w.begin(5);
    for (const item of value) {
      w.begin(1);
      anyValue(w, item);
      w.end();
    }
    w.end();
  } else if (typeof value === 'object' && value !== null) {
    w.begin(6);
    for (const [key, item] of Object.entries(value)) keyValue(w, 1, key, item);
    w.end();
  }
}

function keyValue(w: ProtoWriter, field: number, key: string, value: AttributeValue | unknown): void {
  w.begin(field);
  w.string(1, key);
  w.begin(2);
  anyValue(w, value);
  w.end();
  w.end();
}

function attributes(w: ProtoWriter, field: number, attrs: Attributes | undefined): void {
  if (attrs === undefined) return;
  for (const key in attrs) keyValue(w, field, key, attrs[key]);
}

function count(w: ProtoWriter, field: number, n: number | undefined): void {
  if (n) w.uint(field, n);
}

/** A `Span` message, as field `field` of the message being written (ScopeSpans.spans). */
export function writeSpan(w: ProtoWriter, field: number, span: ReadableSpan): void {
  const ctx = span.spanContext();
  w.begin(field);
  w.hex(1, ctx.traceId);
  w.hex(2, ctx.spanId);
  const state = ctx.traceState?.serialize();
  if (state) w.string(3, state);
  if (span.parentSpanId) w.hex(4, span.parentSpanId);
  w.string(5, span.name);
  // The API's kinds start at INTERNAL = 0; OTLP keeps 0 for unspecified (a span copied out of a workflow's
  // sandbox is typed, not checked).
  w.uint(6, (span.kind as SpanKind | undefined) === undefined ? 0 : span.kind + 1);
  w.time(7, span.startTime);
  w.time(8, span.endTime);
  attributes(w, 9, span.attributes);
  count(w, 10, span.droppedAttributesCount);
  for (const event of span.events) {
    w.begin(11);
    w.time(1, event.time);
    w.string(2, event.name);
    attributes(w, 3, event.attributes);
    count(w, 4, event.droppedAttributesCount);
    w.end();
  }
  count(w, 12, span.droppedEventsCount);
  for (const link of span.links) {
    w.begin(13);
    w.hex(1, link.context.traceId);
    w.hex(2, link.context.spanId);
    const linkState = link.context.traceState?.serialize();
    if (linkState) w.string(3, linkState);
    attributes(w, 4, link.attributes);
    count(w, 5, link.droppedAttributesCount);
    w.end();
  }
  count(w, 14, span.droppedLinksCount);
  w.begin(15);
  if (span.status.message) w.string(2, span.status.message);
  if (span.status.code) w.uint(3, span.status.code);
  w.end();
  w.end();
}

/** A `Resource` message's fields. */
export function writeResource(w: ProtoWriter, attrs: Attributes): void {
  attributes(w, 1, attrs);
}

/** An `InstrumentationScope` message's fields. */
export function writeScope(w: ProtoWriter, scope: { name: string; version?: string | undefined }): void {
  w.string(1, scope.name);
  if (scope.version) w.string(2, scope.version);
}
