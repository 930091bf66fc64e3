import { describe, expect, it } from 'vitest';
import type { TaskPage } from '../../main/common/analysis-tasks.js';
import { BUILTIN_ENTITY_KINDS, DetectionOptions, type BuiltinEntityKind, type DetectionPlan } from '../../main/common/schemas/detection.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { abaValid, ibanValid, luhnValid } from '../../worker/detection/checksums.js';
import { detectInText, detectPages } from '../../worker/detection/index.js';

// The detectors on plain text (what they find, and near misses they must not), then the mapping of
// matches to word boxes and time spans.

function plan(kinds: readonly BuiltinEntityKind[] = BUILTIN_ENTITY_KINDS, extra: Partial<DetectionPlan> = {}): DetectionPlan {
  return { entityKinds: [...kinds], minScore: 0.5, customTerms: [], patterns: [], ...extra };
}

/** The matched strings of one kind in `text`, with the detector run alone. */
function found(kind: BuiltinEntityKind, text: string): string[] {
  return detectInText(text, plan([kind])).map((candidate) => text.slice(candidate.start, candidate.end));
}

describe('checksums', () => {
  it('Luhn, IBAN mod 97 and ABA accept valid numbers and refuse one changed digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('GB82WEST1234569876543')).toBe(false); // one character short for GB
    expect(abaValid('021000021')).toBe(true);
    expect(abaValid('021000022')).toBe(false);
    expect(abaValid('991000021')).toBe(false); // checksum may hold, but 99 is no Federal Reserve prefix
  });
});

describe('US Social Security numbers', () => {
  it('finds dashed numbers anywhere, and bare or spaced ones next to an SSN label', () => {
    expect(found('ssn', 'The file shows 123-45-6789 on page 2.')).toEqual(['123-45-6789']);
    expect(found('ssn', 'SSN: 234567890')).toEqual(['234567890']);
    expect(found('ssn', 'Social Security No. 234 56 7890')).toEqual(['234 56 7890']);
  });

  it('refuses impossible numbers, bare digits without a label, and other dashed layouts', () => {
    expect(found('ssn', 'SSN 000-12-3456, 666-12-3456, 912-34-5678, 123-00-4567, 123-45-0000')).toEqual([]);
    expect(found('ssn', 'Claim 234567890 was paid.')).toEqual([]);
    expect(found('ssn', 'Call 202-555-0143; EIN 12-3456789; ref 123-45-67890')).toEqual([]);
  });
});

describe('email addresses', () => {
  it('finds addresses, also in brackets and with plus tags, without trailing punctuation', () => {
    expect(found('email', 'From: Ann <ann.lee+foia@city.example.gov>, cc bob@example.co.uk.')).toEqual(['ann.lee+foia@city.example.gov', 'bob@example.co.uk']);
  });
  it('refuses handles and addresses without a domain', () => {
    expect(found('email', 'Follow @agency or write to records@localhost')).toEqual([]);
  });
});

describe('phone numbers', () => {
  it('finds US layouts, extensions and international numbers', () => {
    expect(found('phone', 'Call (217) 555-0143 or 217.555.0199, fax 1-800-555-0199 ext. 12, London +44 20 7946 0958.')).toEqual([
      '(217) 555-0143',
      '217.555.0199',
      '1-800-555-0199 ext. 12',
      '+44 20 7946 0958',
    ]);
  });
  it('refuses case numbers, ZIP+4, dates and numbers under a non-phone label', () => {
    expect(found('phone', 'Case 2024-000123 filed 2024-03-05 from 20500-0001.')).toEqual([]);
    expect(found('phone', 'Invoice No. 2025550143 is due.')).toEqual([]);
  });
  it('needs a phone word for ten bare digits', () => {
    expect(found('phone', 'Reference 2025550143 closed.')).toEqual([]);
    expect(found('phone', 'Phone: 2025550143')).toEqual(['2025550143']);
  });
});

describe('payment cards', () => {
  it('finds Luhn-valid numbers of known networks in the usual groupings', () => {
    expect(found('payment_card', 'Visa 4111 1111 1111 1111 and Amex 3782 822463 10005 and MC 5555-5555-5555-4444.')).toEqual([
      '4111 1111 1111 1111',
      '3782 822463 10005',
      '5555-5555-5555-4444',
    ]);
  });
  it('refuses a bad Luhn digit, a Luhn-valid number of no network, and digits inside an IBAN', () => {
    expect(found('payment_card', 'Card 4111 1111 1111 1112 declined.')).toEqual([]);
    expect(found('payment_card', 'IMEI 490154203237518 logged.')).toEqual([]);
    expect(found('payment_card', 'IBAN DE89 3704 0044 0532 0130 00')).toEqual([]);
  });
});

describe('IBANs', () => {
  it('finds grouped and compact IBANs whose mod-97 check holds', () => {
    expect(found('iban', 'Pay DE89 3704 0044 0532 0130 00 or GB82WEST12345698765432 today.')).toEqual(['DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432']);
  });
  it('refuses a wrong check digit and a wrong length', () => {
    expect(found('iban', 'IBAN DE89 3704 0044 0532 0130 01 and DE89 3704 0044 0532 0130 0')).toEqual([]);
  });
});

describe('US routing numbers', () => {
  it('finds an ABA-valid number next to a routing word or the MICR transit symbol', () => {
    expect(found('routing_number', 'Routing No. 021000021, account 12345678')).toEqual(['021000021']);
    expect(found('routing_number', '⑆011000138⑆ 0012345678⑈')).toEqual(['011000138']);
  });
  it('refuses a bad checksum even with a label, and a valid one without any context', () => {
    expect(found('routing_number', 'Routing No. 021000022')).toEqual([]);
    expect(found('routing_number', 'Claim 021000021 is closed.')).toEqual([]);
  });
});

describe('IP addresses', () => {
  it('finds IPv4 (also zero-padded) and IPv6', () => {
    expect(found('ip_address', 'Login from 203.0.113.45 and 2001:db8::8a2e:370:7334; proxy 010.001.020.003')).toEqual(['203.0.113.45', '2001:db8::8a2e:370:7334', '010.001.020.003']);
  });
  it('refuses versions, section numbers, out-of-range octets, loopback and times', () => {
    expect(found('ip_address', 'version 10.2.3.4, section 1.2.3.4, 256.1.1.1, 127.0.0.1, at 12:30:45, OID 1.3.6.1.4.1.9')).toEqual([]);
  });
});

describe('dates of birth', () => {
  it('finds dates after a birth cue, in several layouts', () => {
    expect(found('date_of_birth', 'DOB: 03/14/1978')).toEqual(['03/14/1978']);
    expect(found('date_of_birth', 'She was born on March 14th, 1978 in Ohio.')).toEqual(['March 14th, 1978']);
    expect(found('date_of_birth', 'Date of Birth\n1978-03-14')).toEqual(['1978-03-14']);
  });
  it('refuses dates without a cue, and a later date behind the first one', () => {
    expect(found('date_of_birth', 'Date of incident: 03/14/1978')).toEqual([]);
    expect(found('date_of_birth', 'DOB: 01/02/1980 Arrest date: 03/04/2019')).toEqual(['01/02/1980']);
    expect(found('date_of_birth', 'Born: 13/13/1980 and 02/30/2099')).toEqual([]);
  });
});

describe('passport and driver licence numbers', () => {
  it('finds the value right after its label, also under it', () => {
    expect(found('passport_number', 'Passport No.: 123456789 issued 2015')).toEqual(['123456789']);
    expect(found('passport_number', 'Passport Number\nX1234567')).toEqual(['X1234567']);
    expect(found('passport_number', 'PP#: P1898678; see pp. 12345678')).toEqual(['P1898678']);
    expect(found('drivers_license', "Driver's License: D1234567 (IL)")).toEqual(['D1234567']);
    expect(found('drivers_license', 'DL# S530-4621-9384-02')).toEqual(['S530-4621-9384-02']);
  });
  it('refuses numbers without the label, other numbers after the word, and plates', () => {
    expect(found('passport_number', 'Reference 123456789 and X1234567')).toEqual([]);
    expect(found('passport_number', 'A passport application number 123456789 was cited; passport photo taken 03/04/2021.')).toEqual([]);
    expect(found('drivers_license', 'Vehicle plate ABC1234; business license no. 2019-88731; D1234567')).toEqual([]);
  });
});

describe('street addresses', () => {
  it('finds number, street and suffix with unit and the city line, also on the next line', () => {
    expect(found('street_address', 'She resides at 1234 Oak Street, Apt 5B, Springfield, IL 62704.')).toEqual(['1234 Oak Street, Apt 5B, Springfield, IL 62704']);
    expect(found('street_address', 'Mail to:\n56 W. Elm Ave.\nColumbus, OH 43215')).toEqual(['56 W. Elm Ave.\nColumbus, OH 43215']);
    expect(found('street_address', 'P.O. Box 1234, Boise, ID 83702')).toEqual(['P.O. Box 1234, Boise, ID 83702']);
  });
  it('refuses distances, years and streets without a number', () => {
    expect(found('street_address', 'He drove 3 blocks down Main Street. In 2019 Main Street Festival moved to Route 66.')).toEqual([]);
  });
});

describe('person names', () => {
  it('uses titles, known given names, form layouts, sign-offs and verbs', () => {
    expect(found('person_name', 'Dear Ms. Alvarez,')).toEqual(['Alvarez']);
    expect(found('person_name', 'We spoke with John A. Smith about the request.')).toEqual(['John A. Smith']);
    expect(found('person_name', 'Name: OKONKWO, ÉMILIE\nSex: F')).toEqual(['OKONKWO, ÉMILIE']);
    expect(found('person_name', 'Sincerely,\nKwame Okafor\nRecords Officer')).toEqual(['Kwame Okafor']);
    expect(found('person_name', 'Oluwaseun Adeyemi stated that the car left.')).toEqual(['Oluwaseun Adeyemi']);
  });
  it('refuses organisations, places and capitalised phrases without evidence', () => {
    expect(found('person_name', 'The Department of Public Works met at Lincoln Memorial Hospital; the Washington Post reported it.')).toEqual([]);
    expect(found('person_name', 'EMPLOYEE TRAVEL AUTHORIZATION')).toEqual([]);
    expect(found('person_name', 'Quarterly Budget Review Committee')).toEqual([]);
  });
});

describe('templates: custom terms and patterns', () => {
  it('finds terms whole-word and case-insensitively across line breaks, and named patterns', () => {
    const text = 'Project BLUEBIRD notes.\nSee project\nbluebird and CASE-4411; bluebirds are not it.';
    const candidates = detectInText(text, plan([], { customTerms: ['Project Bluebird'], patterns: [{ name: 'case', regex: 'CASE-\\d{4}' }] }));
    expect(candidates.map((candidate) => [candidate.entity, text.slice(candidate.start, candidate.end), candidate.pattern ?? null])).toEqual([
      ['custom_term', 'Project BLUEBIRD', null],
      ['custom_term', 'project\nbluebird', null],
      ['custom_pattern', 'CASE-4411', 'case'],
    ]);
  });

  it('options refuse an invalid regex, an unknown kind and template plus template_id', () => {
    expect(DetectionOptions.safeParse({ template: { patterns: [{ name: 'bad', regex: '([a-z' }] } }).success).toBe(false);
    expect(DetectionOptions.safeParse({ entity_kinds: ['ssn', 'shoe_size'] }).success).toBe(false);
    expect(DetectionOptions.safeParse({ template: {}, template_id: '3' }).success).toBe(false);
    expect(DetectionOptions.parse({})).toEqual({}); // min_score falls back to the template's, then 0.5 (detectionPlan)
  });
});

describe('overlaps and scores', () => {
  it('keeps the more specific kind where matches overlap, and context raises scores', () => {
    const text = 'Card 4111111111111111 and SSN 123-45-6789.\nNothing here.\nNothing there.\nThe number 123-45-6789 again.';
    const candidates = detectInText(text, plan());
    expect(candidates.map((candidate) => candidate.entity)).toEqual(['payment_card', 'ssn', 'ssn']);
    const [, labelled, bare] = candidates;
    expect(labelled?.cues).toContain('ssn');
    expect(labelled?.score).toBeGreaterThan(bare?.score ?? 1);
  });

  it('min_score drops weaker findings', () => {
    const text = 'Reached at 2025550143 by phone.';
    expect(detectInText(text, plan(['phone'])).length).toBe(1);
    expect(detectInText(text, plan(['phone'], { minScore: 0.9 })).length).toBe(0);
  });
});

/** Words laid out on lines: 6 pt per character, lines 14 pt apart from y = 700 down (PDF points, y up). */
function layout(lines: string[]): TaskPage {
  const words: PageWord[] = [];
  lines.forEach((line, lineIndex) => {
    for (const match of line.matchAll(/\S+/g)) {
      const x1 = 72 + match.index * 6;
      const y1 = 700 - lineIndex * 14;
      words.push({ text: match[0], x1, y1, x2: x1 + match[0].length * 6, y2: y1 + 10, confidence: 96 });
    }
  });
  return { page_number: 1, unit: 'pdf_points', rotation: 0, text: lines.join('\n'), words };
}

describe('boxes', () => {
  it('one box per line a match touches, the union of its words', () => {
    const page = layout(['Mail to: 56 W. Elm Ave.', 'Columbus, OH 43215 today']);
    const [address] = detectPages([page], plan(['street_address']));
    expect(address?.boxes).toEqual([
      { x1: 72 + 9 * 6, y1: 700, x2: 72 + 23 * 6, y2: 710 },
      { x1: 72, y1: 686, x2: 72 + 18 * 6, y2: 696 },
    ]);
  });

  it('a match inside a longer word covers only its characters (with half a character of margin)', () => {
    const page = layout(['SSN:123-45-6789 on file']);
    const [ssn] = detectPages([page], plan(['ssn']));
    expect(ssn?.boxes).toEqual([{ x1: 72 + 3.5 * 6, y1: 700, x2: 72 + 15 * 6, y2: 710 }]);
  });

  it('a name found with evidence is also found where it recurs alone, on another page', () => {
    const first = layout(['Interview with Det. Priya Raghunathan today.']);
    const second = { ...layout(["Raghunathan's notes were filed; raghunathan is lower case."]), page_number: 2 };
    const findings = detectPages([first, second], plan(['person_name']));
    expect(findings.map((finding) => [finding.page, finding.cues])).toEqual([
      [1, ['det']],
      [2, ['recurs']],
    ]);
    expect(findings[1]?.boxes).toEqual([{ x1: 72, y1: 700, x2: 72 + 11.5 * 6, y2: 710 }]);
  });

  it('transcripts: matches become time spans across segments, no boxes', () => {
    const segment = (page: number, text: string, start: number): TaskPage => ({
      page_number: page,
      unit: 'seconds',
      rotation: 0,
      text,
      words: text.split(' ').map((word, index) => ({ text: word, x1: 0, y1: 0, x2: 0, y2: 0, confidence: 90, start: start + index, end: start + index + 0.8 })),
    });
    const findings = detectPages([segment(1, 'please call me at', 0), segment(2, '217 555 0143 thanks', 4)], plan(['phone']));
    expect(findings).toEqual([{ entity: 'phone', page: 2, score: 1, cues: ['call', 'valid number'], rule: 'pattern:phone-nanp', boxes: [], start: 4, end: 6.8 }]);
  });
});
