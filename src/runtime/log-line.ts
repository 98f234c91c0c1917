// A log line is one line: text that reaches a log from a caller (file and archive member names, messages
// naming them) has its line breaks and other control characters written as escapes, so no name can end a
// line early and forge the next one, or hide itself from a reader's terminal.

/** C0 controls, DEL, C1 controls and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every control character escaped (`\n`, `\r`, `\t`, else `\xNN` or `\uNNNN`), and backslashes doubled. */
export function oneLine(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return (
      NAMED[c] ??
      (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
    );
  });
}
