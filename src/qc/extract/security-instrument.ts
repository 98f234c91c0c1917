// The security instrument (Deed of Trust, Mortgage; Uniform Instruments such as Form 3044): the borrower its
// definitions name, the property address of its transfer clause, and the signature lines (read as on the Note).
import type { Located, SecurityInstrumentFields } from '../fields.js';
import type { PageLayout } from '../reading/layout.js';
import { withoutUndefined } from './labels.js';
import { cleanAddress, fromProse } from './prose.js';
import { signaturesOf } from './signatures.js';

export function extractSecurityInstrument(pages: readonly PageLayout[]): SecurityInstrumentFields {
  const signatures = signaturesOf(pages);
  return withoutUndefined({
    // The definitions name every borrower; the signature captions are the fallback.
    borrower: definedBorrower(pages) ?? signatures.borrower,
    // '... which currently has the address of 456 Somewhere Ave, Anytown, ST 12345 ("Property Address"):'
    property: fromProse(
      pages,
      /which currently has the address of\s+(.{1,200}?)\s*\(?\s*["“”]Property Address["“”]/i,
      cleanAddress,
    ),
    signed: signatures.signed,
  });
}

/**
 * '(B) "Borrower" is Michael Jones and Mary Stone. Borrower is the trustor under this Security Instrument.'
 * The capacity the form may add after a comma ("husband and wife") is not part of the names.
 */
function definedBorrower(pages: readonly PageLayout[]): Located<string> | undefined {
  return fromProse(pages, /["“”]?Borrower["“”]? is\s+(?!the\b)(.{1,200}?)\.\s/, (s) => {
    const names = s
      .replace(
        /,\s*(?:husband and wife|wife and husband|a married couple|married|a single (?:man|woman|person)|an unmarried (?:man|woman|person)|as joint tenants.*)$/i,
        '',
      )
      .trim();
    return /[A-Za-z]/.test(names) && names.length <= 160 ? names : undefined;
  });
}
