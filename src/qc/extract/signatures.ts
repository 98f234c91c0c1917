// Borrower signature blocks of the Uniform Instruments (Note, security instrument): whether each line is
// signed, and the names captioned under the lines.
import type { Located, PrintedBox } from '../fields.js';
import type { Line, PageLayout } from '../reading/layout.js';
import type { TextItem } from '../reading/page.js';
import { withoutUndefined } from './labels.js';

export interface SignatureLine {
  /** The name typed under the line ("Michael Jones"), when one is. */
  name?: string;
  /** True when something is written on the line, false when it is blank, undefined when no line was found. */
  signed?: boolean;
  page: number;
  /** The caption under the line. */
  box: PrintedBox;
}

/** "-Borrower", "- Borrower", "Michael Jones - Borrower": the caption under a borrower's signature line. */
const CAPTION = /(?:^|\s)[-–—]\s*Borrower\s*$/i;
const RULE = /_{5,}/;
const SEAL = /\(\s*Seal\s*\)/gi;
/** How far above a caption its signature line may stand (points). */
const LINE_REACH = 30;
/** How far above the signature line a signature written over it may stand. */
const SIGNATURE_REACH = 14;
/** Without a printed rule, how far above the caption a signature's run may stand. */
const RUN_REACH = 20;

/**
 * The borrowers' signature blocks of a Uniform Instrument: a line ("______ (Seal)") with a caption under it
 * naming the signer ("Michael Jones -Borrower"). Something written on the line or just above it ("/s/
 * Michael Jones", an electronic signature's text run) is a signature; a line of underscores alone is not.
 * An electronically signed copy may print no rule at all, only the signature's run over the caption.
 */
export function signatureLines(pages: readonly PageLayout[]): SignatureLine[] {
  const found: SignatureLine[] = [];
  for (const page of pages) {
    page.lines.forEach((line, index) => {
      const captions = line.items.filter((i) => CAPTION.test(i.text.trim()));
      for (const caption of captions) {
        const name = captionName(page, line, index, caption);
        found.push(
          withoutUndefined({
            name,
            signed: signedAbove(page, line, caption),
            page: page.number,
            box: page.boxOf(caption),
          }),
        );
      }
    });
  }
  return found;
}

/**
 * The signer's name: before the dash in the caption's run, else the runs left of it in its column, else the
 * line below.
 */
function captionName(page: PageLayout, line: Line, index: number, caption: TextItem): string | undefined {
  const inRun = caption.text
    .replace(/\s*[-–—]?\s*Borrower\s*$/i, '')
    .replace(SEAL, '')
    .trim();
  if (isName(inRun)) return inRun;
  const previousCaption = line.items
    .filter((i) => i !== caption && i.x < caption.x && /Borrower\s*$/i.test(i.text.trim()))
    .at(-1);
  const left = line.items
    .filter((i) => i.x < caption.x && (!previousCaption || i.x > previousCaption.x))
    .map((i) =>
      i.text
        .replace(SEAL, '')
        .replace(/[-–—]\s*$/, '')
        .trim(),
    )
    .filter((t) => t !== '')
    .join(' ');
  if (isName(left)) return left;
  const below = page.lines[index + 1];
  if (below && line.y - below.y < 16) {
    const under = below.items.filter(
      (i) =>
        i.x < caption.x + caption.width &&
        i.x + i.width > (previousCaption ? previousCaption.x + previousCaption.width : 0),
    );
    const text = under.map((i) => i.text.trim()).join(' ');
    if (isName(text)) return text;
  }
  return undefined;
}

function isName(text: string): boolean {
  return /^[A-Za-z][A-Za-z.'’ -]{1,80}$/.test(text) && !/borrower|seal|witness|signature/i.test(text);
}

/** The signature line nearest above the caption in its column, and whether anything is written on it. */
function signedAbove(page: PageLayout, line: Line, caption: TextItem): boolean | undefined {
  // The block runs from the signer's name to the caption at its right end; the rule spans it, "(Seal)" beside.
  const previousCaption = line.items
    .filter((i) => i !== caption && i.x < caption.x && CAPTION.test(i.text.trim()))
    .at(-1);
  const start = line.items
    .filter((i) => i.x < caption.x && (!previousCaption || i.x > previousCaption.x))
    .reduce((min, i) => Math.min(min, i.x), caption.x - 60);
  const column = (i: TextItem) => i.x < caption.x + caption.width && i.x + i.width > start - 10;
  const rule = page.items
    .filter((i) => RULE.test(i.text) && i.y > line.y + 1 && i.y - line.y <= LINE_REACH && column(i))
    .sort((a, b) => a.y - b.y || Math.abs(a.x + a.width - caption.x) - Math.abs(b.x + b.width - caption.x))[0];
  if (!rule) return signatureRun(page, line, column);
  const overlaps = (i: TextItem) => i.x < rule.x + rule.width && i.x + i.width > rule.x;
  const written = page.items
    .filter((i) => i.y >= rule.y - 2 && i.y <= rule.y + SIGNATURE_REACH && overlaps(i))
    .map((i) => i.text.replace(/_+/g, ' ').replace(SEAL, ' '))
    .join(' ');
  return /[A-Za-z]/.test(written);
}

/**
 * No rule above the caption: the nearest line above it in the caption's column. A run there other than
 * "(Seal)" is the signature, "(Seal)" alone an unsigned block; prose ("WITNESS THE HAND(S) ...") says nothing.
 */
function signatureRun(page: PageLayout, line: Line, column: (i: TextItem) => boolean): boolean | undefined {
  const above = page.lines.filter((l) => l.y > line.y + 1 && l.y - line.y <= RUN_REACH && l.items.some(column)).at(-1);
  if (!above) return undefined;
  const text = above.items
    .filter(column)
    .map((i) => i.text)
    .join(' ');
  if (/witness|by signing|undersigned/i.test(text)) return undefined;
  if (/[A-Za-z]/.test(text.replace(SEAL, ' '))) return true;
  return /\(\s*Seal\s*\)/i.test(text) ? false : undefined;
}

/** Every signer's name in print order, "A and B"; and signed only when every signature line is. */
export function signaturesOf(pages: readonly PageLayout[]): { borrower?: Located<string>; signed?: Located<boolean> } {
  const lines = signatureLines(pages);
  const names = [...new Set(lines.flatMap((l) => (l.name ? [l.name] : [])))];
  const judged = lines.filter((l) => l.signed !== undefined);
  const unsigned = judged.find((l) => l.signed === false);
  const first = lines.find((l) => l.name);
  return withoutUndefined({
    borrower: first && names.length > 0 ? { value: joinNames(names), page: first.page, box: first.box } : undefined,
    signed:
      judged.length === 0
        ? undefined
        : { value: unsigned === undefined, page: (unsigned ?? judged[0]!).page, box: (unsigned ?? judged[0]!).box },
  });
}

function joinNames(names: string[]): string {
  return names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
