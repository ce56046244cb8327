import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { EmailAddress, normalizeEmail, normalizePhone, normalizeTypedPhone, phoneExample, phoneFromUrl, phoneHint, typedPhoneToStore } from '../src/lib/contact';

// The email and phone rules (lib/contact.ts), case by case. The same functions validate enroll,
// custom-field answers and the seed file, and produce the keys lookups compare.

describe('email: one rule', () => {
  // [input, the normal form lookups compare]
  const accepted: [string, string][] = [
    ['ada@example.com', 'ada@example.com'],
    ['  Ada.Lovelace@Example.COM  ', 'ada.lovelace@example.com'],
    ['user+tag@example.co.uk', 'user+tag@example.co.uk'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['x@a.io', 'x@a.io'],
    ['first_last-1@sub-domain.example.com', 'first_last-1@sub-domain.example.com'],
    ['user@example.c0m', 'user@example.c0m'],
    // IDN: a Unicode domain and its xn-- (punycode) form are one address.
    ['user@bücher.de', 'user@xn--bcher-kva.de'],
    ['user@xn--bcher-kva.de', 'user@xn--bcher-kva.de'],
    ['user@XN--BCHER-KVA.DE', 'user@xn--bcher-kva.de'],
    ['jörg@bücher.de', 'jörg@xn--bcher-kva.de'],
    ['JÖRG@BÜCHER.DE', 'jörg@xn--bcher-kva.de'],
    ['jo\u0308rg@bücher.de', 'jörg@xn--bcher-kva.de'], // ö as o + combining diaeresis
    ['用户@例子.广告', '用户@xn--fsqu00a.xn--4rr70v'],
    ['user@ｅｘａｍｐｌｅ.com', 'user@example.com'], // full-width letters map to ASCII (UTS #46)
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
  ];
  const refused: [string, string][] = [
    ['empty', ''],
    ['spaces only', '   '],
    ['no @', 'plainaddress'],
    ['no local part', '@example.com'],
    ['no domain', 'user@'],
    ['two @', 'user@@example.com'],
    ['an @ in the local part', 'us@er@example.com'],
    ['a space in the local part', 'us er@example.com'],
    ['a space in the domain', 'user@exa mple.com'],
    ['a domain without a dot', 'user@localhost'],
    ['a trailing dot on the domain', 'user@example.com.'],
    ['a leading dot in the local part', '.user@example.com'],
    ['a trailing dot in the local part', 'user.@example.com'],
    ['two dots in the local part', 'us..er@example.com'],
    ['two dots in the domain', 'user@example..com'],
    ['a quoted local part', '"john doe"@example.com'],
    ['a quoted plain local part', '"john"@example.com'],
    ['a label starting with a hyphen', 'user@-example.com'],
    ['a label ending with a hyphen', 'user@example-.com'],
    ['an underscore in the domain', 'user@exa_mple.com'],
    ['an address literal', 'user@[127.0.0.1]'],
    ['an IP address as domain', 'user@127.0.0.1'],
    ['a numeric top-level label', 'user@1.23'],
    ['a percent-encoded domain', 'user@ex%41mple.com'],
    ['a zero-width space in the domain', 'user@exam\u200bple.com'],
    ['a zero-width space in the local part', 'us\u200ber@example.com'],
    ['broken punycode', 'user@xn--zz.de'],
    ['a local part over 64 octets', `${'a'.repeat(65)}@example.com`],
    ['a local part over 64 octets in UTF-8', `${'ö'.repeat(33)}@example.com`],
    ['a domain label over 63 characters', `user@${'a'.repeat(64)}.com`],
    ['an address over 254 characters', `user@${`${'a'.repeat(62)}.`.repeat(4)}com`],
    ['a display name', 'Ada <ada@example.com>'],
    ['a comma-separated list', 'a@example.com,b@example.com'],
    ['a control character', 'ada@example.com\n'.replace('\n', '\u0007')],
  ];

  for (const [input, normal] of accepted) {
    it(`accepts ${JSON.stringify(input)} as ${normal}`, () => {
      assert.equal(normalizeEmail(input), normal);
      assert.ok(v.safeParse(EmailAddress, input).success);
    });
  }
  for (const [name, input] of refused) {
    it(`refuses ${name} (${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)})`, () => {
      assert.equal(normalizeEmail(input), null);
      const result = v.safeParse(EmailAddress, input);
      assert.equal(result.success, false);
      assert.match(result.issues![0].message, /^must be an email address/);
    });
  }
  it('absent is null', () => {
    assert.equal(normalizeEmail(null), null);
    assert.equal(normalizeEmail(undefined), null);
  });
});

describe('phone: one rule (E.164 through libphonenumber; not international or not possible: nothing)', () => {
  // [input, E.164 or null]
  const cases: [string, string, string | null][] = [
    ['E.164 as is', '+491701234567', '+491701234567'],
    ['spaces', '+49 170 1234567', '+491701234567'],
    ['dashes, dots and brackets', '+49 (170) 123-45.67', '+491701234567'],
    ['a bracketed country code', '(+49) 170 1234567', '+491701234567'],
    ['UK: the trunk 0 in brackets is dropped', '+44 (0)20 7946 0958', '+442079460958'],
    ['UK: the trunk 0 without brackets is dropped', '+44 020 7946 0958', '+442079460958'],
    ['UK written right', '+44 20 7946 0958', '+442079460958'],
    ['Germany: trunk 0 dropped', '+49 (0)170 1234567', '+491701234567'],
    ['France: trunk 0 dropped', '+33 (0)6 12 34 56 78', '+33612345678'],
    ['Netherlands: trunk 0 dropped', '+31 (0)6 12345678', '+31612345678'],
    ['Australia: trunk 0 dropped', '+61 (0)4 1234 5678', '+61412345678'],
    ['Italy keeps its leading 0 (it is part of the number)', '+39 06 1234 5678', '+390612345678'],
    ['Italy keeps it in brackets too', '+39 (0)6 1234 5678', '+390612345678'],
    ['Italy, a mobile', '+39 333 123 4567', '+393331234567'],
    ['NANP: New York', '+1 (212) 555-0100', '+12125550100'],
    ['NANP: toll free', '+1 800 555 0199', '+18005550199'],
    ['NANP: American Samoa', '+1 684 733 1234', '+16847331234'],
    ['NANP: seven digits only (no area code)', '+1 555 0100', null],
    ['Russia', '+7 495 123-45-67', '+74951234567'],
    ['a global service number (+800)', '+800 1234 5678', '+80012345678'],
    ['no such country code', '+999 1234567', null],
    ['an emergency short code', '+112', null],
    ['a short code after a country code', '+44 999', null],
    ['too short', '+49 12', null],
    ['too long', '+49 1701 2345 6789 0123', null],
    ['more than 15 digits', '+4917012345678901', null],
    ['national format (no +)', '0170 1234567', null],
    ['00 instead of +', '0049 170 1234567', null],
    ['two +', '++49 170 1234567', null],
    ['letters', '+49 170 CALL NOW', null],
    ['a vanity number', '+1-800-FLOWERS', null],
    ['an extension', '+49 170 1234567 ext. 12', null],
    ['a + in the middle', '+49 170 +1234567', null],
    ['empty', '', null],
    ['only +', '+', null],
  ];
  for (const [name, input, expected] of cases) {
    it(`${name}: ${JSON.stringify(input)} → ${expected}`, () => {
      assert.equal(normalizePhone(input), expected);
    });
  }
  it('absent is null', () => {
    assert.equal(normalizePhone(null), null);
    assert.equal(normalizePhone(undefined), null);
  });

  // In a URL a + often arrives as a space (form encoding); phoneFromUrl gives it back first.
  const fromUrl: [string, string | null][] = [
    [' 44 (0)20 7946 0958', '+442079460958'],
    [' 49 170 1234567', '+491701234567'],
    ['( 49) 170 1234567', '+491701234567'],
    [' (49) 170 1234567', '+491701234567'],
    ['+39 06 1234 5678', '+390612345678'],
    ['0170 1234567', null],
  ];
  for (const [input, expected] of fromUrl) {
    it(`from a URL: ${JSON.stringify(input)} → ${expected}`, () => {
      assert.equal(normalizePhone(phoneFromUrl(input)), expected);
    });
  }
});

describe('phone typed by a person: national numbers in the shop’s country', () => {
  // [country, input, E.164 or null]
  const cases: [string | null, string, string | null][] = [
    ['DE', '0151 2345678', '+491512345678'],
    ['DE', '(030) 123 45 67', '+49301234567'],
    ['DE', '0049 151 2345678', '+491512345678'],
    ['DE', '+44 20 7946 0958', '+442079460958'],
    ['GB', '07700 900123', '+447700900123'],
    ['FR', '06 12 34 56 78', '+33612345678'],
    ['IT', '06 1234 5678', '+390612345678'],
    ['US', '(212) 555-0100', '+12125550100'],
    ['DE', '0151 234567890123', null],
    ['DE', '0151 CALL ME', null],
    ['DE', '12', null],
    [null, '0151 2345678', null],
    [null, '+49 151 2345678', '+491512345678'],
    ['XX', '0151 2345678', null],
  ];
  for (const [country, input, expected] of cases) {
    it(`${country ?? 'no country'}: ${JSON.stringify(input)} → ${expected}`, () => {
      assert.equal(normalizeTypedPhone(input, country), expected);
    });
  }

  it('stores a national number as E.164 and an international one as typed', () => {
    assert.equal(typedPhoneToStore('0151 2345678', 'DE'), '+491512345678');
    assert.equal(typedPhoneToStore(' +49 151 2345678 ', 'DE'), '+49 151 2345678');
    assert.equal(typedPhoneToStore('0151 2345678', null), null);
  });

  it('gives a mobile number of the country as the forms’ example', () => {
    assert.deepEqual(phoneExample('DE'), { national: '01512 3456789', international: '+49 1512 3456789' });
    assert.deepEqual(phoneExample('GB'), { national: '07400 123456', international: '+44 7400 123456' });
    assert.equal(phoneExample(null), null);
    assert.equal(phoneHint('FR'), 'Such as 06 12 34 56 78, or with the country code: +33 6 12 34 56 78.');
    assert.equal(phoneHint(null), 'With the country code, such as +44 20 7946 0958.');
  });
});
