import test from 'ava';
import { oneLine } from '../../../src/runtime/log-line.js';

test('a name with a line break cannot start a line of its own in a log', (t) => {
  const name = 'cd.pdf\nworker: [forged] review 1 released\r\n';
  t.is(oneLine(`refused: ${name}`), 'refused: cd.pdf\\nworker: [forged] review 1 released\\r\\n');
  t.false(oneLine(name).includes('\n'));
});

test('every control character is escaped, and a backslash is doubled so an escape cannot be forged', (t) => {
  t.is(oneLine('a\tb\u0000c\u001bd\u007fe\u0085f\u2028g\u2029h'), 'a\\tb\\x00c\\x1bd\\x7fe\\x85f\\u2028g\\u2029h');
  t.is(oneLine('C:\\n'), 'C:\\\\n');
  t.is(oneLine('résumé — plain text, 漢字'), 'résumé — plain text, 漢字');
});
