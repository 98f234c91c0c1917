// How the documents of a package name people, employers and properties, reduced to keys that compare
// equal when only the spelling differs: case, punctuation, middle initials, corporate suffixes, "Ave".

/** Lowercase words without accents; dots and apostrophes vanish ("L.L.C." → "llc", "O'Brien" → "obrien"). */
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[.'’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
}

// ---- People ------------------------------------------------------------------------------------------

const NAME_TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr']);
const NAME_SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

/**
 * A person's words without titles, generational suffixes and initials. A suffix word leading a name is a
 * name ("J.R. Smith"); alone it is what follows a comma ("Michael Jones, Jr.").
 */
function personWords(text: string): string[] {
  // A hyphenated surname is one word: "O'Brien-Stone" is not "Stone".
  const ws = words(text.replace(/-/g, '')).filter(
    (w, i, all) => !NAME_TITLES.has(w) && !(NAME_SUFFIXES.has(w) && (i > 0 || all.length === 1)),
  );
  const full = ws.filter((w) => w.length > 1);
  // "J. M. Jones" has nothing but initials before the surname: keep them rather than lose the person.
  return full.length > 1 ? full : ws;
}

/**
 * The people a printed borrower line names, each as a key "first last": "Michael Jones and Mary Stone",
 * "Jones, Michael A.", "Michael and Mary Jones" (the first borrows the shared surname). Middle names and
 * initials are left out, so "Michael A. Jones" and "Michael Jones" are one person.
 */
export function personKeys(printed: string): string[] {
  const people: string[][] = [];
  for (const part of printed.split(/\s+(?:and|&)\s+|\s*[;&\n]\s*/i)) {
    const segments = part
      .split(',')
      .map(personWords)
      .filter((ws) => ws.length > 0);
    const [surname, given] = segments;
    if (segments.length === 2 && surname?.length === 1 && given) people.push([...given, ...surname]);
    else people.push(...segments);
  }
  return people
    .map((ws, i) => {
      const next = people[i + 1];
      const named = ws.length === 1 && next && next.length > 1 ? [...ws, ...next.slice(-1)] : ws;
      return named.length > 1 ? `${named[0]} ${named.at(-1)}` : (named[0] ?? '');
    })
    .filter((key) => key !== '');
}

/** Two printed names of one person (the first person each names). */
export function samePerson(a: string, b: string): boolean {
  const [ka] = personKeys(a);
  const [kb] = personKeys(b);
  return ka !== undefined && ka === kb;
}

// ---- Organisations -----------------------------------------------------------------------------------

const CORPORATE_SUFFIXES = new Set([
  'inc',
  'incorporated',
  'llc',
  'llp',
  'lp',
  'pllc',
  'pc',
  'plc',
  'ltd',
  'limited',
  'corp',
  'corporation',
  'co',
  'company',
  'na',
]);

/** An employer's or bank's name without case, punctuation, a leading "The" and trailing corporate suffixes. */
export function organisationKey(printed: string): string {
  const ws = words(printed.replace(/&/g, ' and '));
  if (ws[0] === 'the' && ws.length > 1) ws.shift();
  while (ws.length > 1 && CORPORATE_SUFFIXES.has(ws.at(-1) ?? '')) ws.pop();
  return ws.join(' ');
}

// ---- Property addresses ------------------------------------------------------------------------------

/** USPS abbreviations (Publication 28) for street suffixes, unit designators and directions. */
const ADDRESS_WORDS: Record<string, string> = {
  avenue: 'ave',
  av: 'ave',
  street: 'st',
  str: 'st',
  drive: 'dr',
  road: 'rd',
  boulevard: 'blvd',
  lane: 'ln',
  court: 'ct',
  place: 'pl',
  terrace: 'ter',
  circle: 'cir',
  parkway: 'pkwy',
  highway: 'hwy',
  square: 'sq',
  trail: 'trl',
  crescent: 'cres',
  expressway: 'expy',
  freeway: 'fwy',
  alley: 'aly',
  heights: 'hts',
  mount: 'mt',
  fort: 'ft',
  saint: 'st',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  northeast: 'ne',
  northwest: 'nw',
  southeast: 'se',
  southwest: 'sw',
  // "Apt 4", "Unit 4", "Suite 4" and "#4" all name the same unit.
  apartment: 'unit',
  apt: 'unit',
  suite: 'unit',
  ste: 'unit',
};

const STATES: Record<string, string> = {
  alabama: 'al',
  alaska: 'ak',
  arizona: 'az',
  arkansas: 'ar',
  california: 'ca',
  colorado: 'co',
  connecticut: 'ct',
  delaware: 'de',
  'district of columbia': 'dc',
  florida: 'fl',
  georgia: 'ga',
  hawaii: 'hi',
  idaho: 'id',
  illinois: 'il',
  indiana: 'in',
  iowa: 'ia',
  kansas: 'ks',
  kentucky: 'ky',
  louisiana: 'la',
  maine: 'me',
  maryland: 'md',
  massachusetts: 'ma',
  michigan: 'mi',
  minnesota: 'mn',
  mississippi: 'ms',
  missouri: 'mo',
  montana: 'mt',
  nebraska: 'ne',
  nevada: 'nv',
  'new hampshire': 'nh',
  'new jersey': 'nj',
  'new mexico': 'nm',
  'new york': 'ny',
  'north carolina': 'nc',
  'north dakota': 'nd',
  ohio: 'oh',
  oklahoma: 'ok',
  oregon: 'or',
  pennsylvania: 'pa',
  'rhode island': 'ri',
  'south carolina': 'sc',
  'south dakota': 'sd',
  tennessee: 'tn',
  texas: 'tx',
  utah: 'ut',
  vermont: 'vt',
  virginia: 'va',
  washington: 'wa',
  'west virginia': 'wv',
  wisconsin: 'wi',
  wyoming: 'wy',
};

// Longest names first, so "west virginia" is taken before "virginia" (and before "west" becomes "w").
const STATE_PATTERN = new RegExp(
  `\\b(${Object.keys(STATES)
    .sort((a, b) => b.length - a.length)
    .join('|')})\\b`,
  'g',
);

/**
 * An address as words in USPS spelling: "456 Somewhere Avenue, Anytown, ST 12345-6789" → 456 somewhere ave
 * anytown st 12345.
 */
export function addressWords(printed: string): string[] {
  const text = printed.replace(/\b(\d{5})-\d{4}\b/g, '$1').replace(/#/g, ' unit ');
  const joined = words(text)
    .join(' ')
    .replace(STATE_PATTERN, (name) => STATES[name] ?? name);
  return joined
    .split(' ')
    .filter((w) => w !== '')
    .map((w) => ADDRESS_WORDS[w] ?? w);
}

/**
 * One property: the same words, or one address is the other cut short ("456 Somewhere Ave" against
 * "456 Somewhere Ave, Anytown, ST 12345"), as when a form prints the city on a line extraction did not take.
 */
export function sameAddress(a: string, b: string): boolean {
  return oneProperty([a, b]);
}

/**
 * Every two of `addresses` are one property (sameAddress). Since "one is the other cut short" means each
 * is a prefix of the longest, that is one pass, not a comparison of every pair: a split PDF can make
 * thousands of documents.
 */
export function oneProperty(addresses: readonly string[]): boolean {
  const all = addresses.map(addressWords);
  const longest = all.reduce((a, b) => (b.length > a.length ? b : a), []);
  return all.every((words) => words.length > 0 && words.every((w, i) => longest[i] === w));
}
