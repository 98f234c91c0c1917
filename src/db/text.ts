// Text PostgreSQL can store. It refuses a NUL character in `text` (22021) and in `jsonb` (22P05), and a
// string with an unpaired UTF-16 surrogate cannot be encoded as UTF-8 at all. Such a value must be turned
// away at the boundary, named, in milliseconds: sent to the database it fails every retry of the write.

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what PostgreSQL refuses, so what this finds.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

export const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** Text read from a document (a PDF form's field), made storable: each offending character becomes U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE_ALL, '\uFFFD');
}
