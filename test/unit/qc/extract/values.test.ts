// Printed values to typed ones: what parses, and what is refused rather than guessed.
import test from 'ava';
import {
  isCaption,
  organisationName,
  parseAmount,
  parseDate,
  parseMoney,
  parseRate,
  parseTermMonths,
  personName,
  streetAddress,
} from '../../../../src/qc/extract/values.js';

test("dates in the forms' shapes parse to ISO dates; impossible ones and years outside 1900–2100 do not", (t) => {
  t.is(parseDate('4/15/2013'), '2013-04-15');
  t.is(parseDate('4/15/13'), '2013-04-15');
  t.is(parseDate('April 15, 2013'), '2013-04-15');
  t.is(parseDate('2013-04-15'), '2013-04-15');
  t.is(parseDate('2/30/2013'), undefined);
  t.is(parseDate('12/30/9999'), undefined, 'a year that would send the business-day calendars across millennia');
  t.is(parseDate('1/1/0100'), undefined);
});

test('money is integer cents, credits negative; rates are decimals; terms are months', (t) => {
  t.is(parseMoney('$162,000'), 16_200_000);
  t.is(parseMoney('– $500.00'), -50_000);
  t.is(parseMoney('$1,80,000'), undefined);
  t.is(parseRate('3.875%'), 0.03875);
  t.is(parseTermMonths('30 years'), 360);
  t.is(parseTermMonths('360 months'), 360);
});

test('OCR misreadings inside numbers are repaired only where the result parses and checks', (t) => {
  t.is(parseMoney('$9,71 2.10'), 971_210, 'a space inside the number');
  t.is(parseMoney('$1O,OOO'), 1_000_000, 'O for 0');
  t.is(parseMoney('$l62,000'), 16_200_000, 'l for 1');
  t.is(parseMoney('S0'), 0, 'S for a leading $');
  t.is(parseMoney('$3S0.00'), 35_000, 'S for 5 inside the number');
  t.is(parseMoney('$9,71 23.10'), undefined, 'the repair must still group by thousands');
  t.is(parseMoney('SOLD'), undefined, 'a word is no number');
  t.is(parseMoney('$ 1,050 $968'), undefined, 'two amounts are not one');
  t.is(parseMoney('9703.33'), 70_333, 'a "$" read as a digit before a figure that would need a thousands comma');
  t.is(parseMoney('3703.33'), 70_333);
  t.is(parseMoney('51,359'), undefined, 'grouped as printed: "$51,359" with its sign lost is as likely, so no guess');
  t.is(parseAmount('3703.33'), 370_333, 'a figure printed without its sign is read as printed');
  t.is(parseAmount('S1,234.00'), 123_400);
  t.is(parseRate('3.87S%'), 0.03875);
  t.is(parseDate('4/l5/2O13'), '2013-04-15');
  t.is(parseDate('4/l5/2O1'), undefined);
  t.is(parseTermMonths('30 años'), 360);
  t.is(parseTermMonths('3000 months'), undefined, 'no loan runs 250 years');
});

test("names, organisations and addresses are read only in their own shapes, never from a form's captions", (t) => {
  t.is(personName('Michael Jones and Mary Stone'), 'Michael Jones and Mary Stone');
  t.is(personName('Anna S. Lindqvist'), 'Anna S. Lindqvist');
  t.is(personName('Loan Term'), undefined);
  t.is(personName('LOAN TYPE'), undefined);
  t.is(personName('Michael'), undefined, 'one word is no full name');
  t.is(personName('123 Anywhere Street'), undefined);
  t.is(organisationName('Ficus Bank'), 'Ficus Bank');
  t.is(organisationName('L oan ID'), undefined, 'a caption OCR split');
  t.is(organisationName('MORTGAGE BROKER'), undefined);
  // The Spanish forms' captions (H-28) are captions too: a blank Spanish CD has no lender.
  t.is(organisationName('Corredor hipotecario'), undefined);
  t.is(organisationName('Agente de liquidación'), undefined);
  t.true(isCaption('Información de contacto'));
  t.is(organisationName('Credits'), undefined, 'a caption word alone ("Lender" beside "Credits")');
  t.is(organisationName('change unless you lock the interest rate'), undefined, 'a sentence');
  t.is(streetAddress('456 Somewhere Ave, Anytown, ST 12345'), '456 Somewhere Ave, Anytown, ST 12345');
  t.is(streetAddress('Anytown, ST 12345'), 'Anytown, ST 12345');
  t.is(streetAddress('PO Box 100'), 'PO Box 100');
  t.is(streetAddress('VA'), undefined);
  t.is(streetAddress('Before closing, your interest rate, points, and lender credits can'), undefined);
  t.true(isCaption('Loan ID #'));
  t.true(isCaption('LoanID #'), 'OCR ran the caption together');
  t.true(isCaption('LOANID'));
  t.false(isCaption('Ficus Bank'));
});

test('thousands points that OCR took for commas are read as commas when the amount then checks', (t) => {
  t.is(parseMoney('$7.500.00'), 750_000);
  t.is(parseMoney('$7.50.00'), undefined);
});
