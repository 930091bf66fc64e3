import { describe, expect, it } from 'vitest';
import type { TaskPage } from '../../main/common/analysis-tasks.js';
import { BUILTIN_ENTITY_KINDS, type BuiltinEntityKind, type DetectionPlan } from '../../main/common/schemas/detection.js';
import { luhnValid } from '../../worker/detection/checksums.js';
import { detectInText, detectPages } from '../../worker/detection/index.js';
import { boxOf, layoutPage } from '../helpers/page-layout.js';

// The shapes of issue 20 on plain text and on laid-out pages: phones by shape and cue, international and
// multi-line addresses, any-case IBANs, 12-digit Maestro, birth dates near cues, values broken across lines
// or hyphenated, and the look-alikes that must stay unsuggested.

function plan(kinds: readonly BuiltinEntityKind[] = BUILTIN_ENTITY_KINDS, minScore = 0.5): DetectionPlan {
  return { entityKinds: [...kinds], minScore, customTerms: [], patterns: [] };
}

const found = (kind: BuiltinEntityKind, text: string) => detectInText(text, plan([kind])).map((candidate) => text.slice(candidate.start, candidate.end));
const all = (text: string) => detectInText(text, plan()).map((candidate) => `${candidate.entity}:${text.slice(candidate.start, candidate.end)}`);
const page = (lines: string[]): TaskPage => ({ page_number: 1, unit: 'pdf_points', rotation: 0, ...layoutPage(lines) });

describe('phones by shape and cue', () => {
  it('finds numbers that are not valid by libphonenumber when their shape or a cue says phone', () => {
    // 555-0100 numbers and a 1xx exchange are not valid North American numbers, but they are phone-shaped.
    expect(found('phone', 'Please call me at 555-123-4567 after five.')).toEqual(['555-123-4567']);
    expect(found('phone', 'fax: (312) 155 0199 x23')).toEqual(['(312) 155 0199 x23']);
    expect(found('phone', 'Tel. 001-482-155-0199x4431')).toEqual(['001-482-155-0199x4431']);
    expect(found('phone', 'mobile 07700 900123')).toEqual(['07700 900123']);
    expect(found('phone', 'reach me on +44 20 7946 0958 or 520/962-8597.')).toEqual(['+44 20 7946 0958', '520/962-8597']);
  });

  it('validity raises the score, it does not gate', () => {
    const [valid] = detectInText('call 217-555-0143', plan(['phone']));
    const [invalid] = detectInText('call 555-123-4567', plan(['phone']));
    expect(valid?.cues).toContain('valid number');
    expect(invalid?.cues).not.toContain('valid number');
    expect(valid?.score).toBeGreaterThan(invalid?.score ?? 1);
    expect(invalid?.score).toBeGreaterThanOrEqual(0.5);
  });

  it('leaves case numbers, ZIP+4 codes, year-serials, bare digit runs and IBAN tails alone', () => {
    expect(found('phone', 'Order no 555-123-4567 shipped')).toEqual([]);
    expect(found('phone', 'Springfield, IL 62704-3744')).toEqual([]);
    expect(found('phone', 'Case 2017-725599 was closed')).toEqual([]);
    expect(found('phone', 'Invoice 1234567890 is due')).toEqual([]);
    expect(found('phone', 'IBAN DE89 3704 0044 0532 0130 01 (wrong checksum)')).toEqual([]);
  });
});

describe('addresses, international and US', () => {
  it('finds number-last, type-first, UK, military and PO box forms', () => {
    expect(found('street_address', 'Ms. Vogel lives at Hauptstraße 12, 10115 Berlin now.')).toEqual(['Hauptstraße 12, 10115 Berlin']);
    expect(found('street_address', 'Send it to 10 rue de Rivoli, 75001 Paris please')).toEqual(['10 rue de Rivoli, 75001 Paris']);
    expect(found('street_address', 'Office: Calle Mayor 3, 28013 Madrid')).toEqual(['Calle Mayor 3, 28013 Madrid']);
    expect(found('street_address', 'Write to PSC 1234, Box 5678, APO AE 09123 soon')).toEqual(['PSC 1234, Box 5678, APO AE 09123']);
    expect(found('street_address', 'Mail goes to P.O. Box 4410, Dayton, OH 45401.')).toEqual(['P.O. Box 4410, Dayton, OH 45401']);
    expect(found('street_address', '1033 W. VanBuren, 7th Flr, Chicago, IL 60607')).toEqual(['1033 W. VanBuren, 7th Flr, Chicago, IL 60607']);
    expect(found('street_address', 'Stored at 6500 Highway 179, Sedona, AZ 86351.')).toEqual(['6500 Highway 179, Sedona, AZ 86351']);
  });

  it('joins a street line and its city or postcode line into one suggestion with a box per line', () => {
    const findings = detectPages([page(['Home: 221B Baker Street', 'London NW1 6XE', 'Thank you.'])], plan(['street_address']));
    expect(findings).toHaveLength(1);
    expect(findings[0]?.boxes).toEqual([boxOf(0, 6, 23), boxOf(1, 0, 14)]);
    const us = detectPages([page(['Resides at 1234 Oak Street, Apt 5B,', 'Springfield, IL 62704'])], plan(['street_address']));
    expect(us).toHaveLength(1);
    expect(us[0]?.boxes).toHaveLength(2);
  });

  it('does not take place names without a number, counts or years for addresses', () => {
    expect(found('street_address', 'She moved to Springfield, Illinois last year.')).toEqual([]);
    expect(found('street_address', 'It is 3 miles down Main Street.')).toEqual([]);
    expect(found('street_address', 'In 2019 Main Street was repaved.')).toEqual([]);
  });
});

describe('IBANs, cards and birth dates', () => {
  it('finds IBANs in lower case, spaced or dashed, checksum enforced', () => {
    expect(found('iban', 'iban: de89 3704 0044 0532 0130 00')).toEqual(['de89 3704 0044 0532 0130 00']);
    expect(found('iban', 'IBAN GB82-WEST-1234-5698-7654-32')).toEqual(['GB82-WEST-1234-5698-7654-32']);
    expect(found('iban', 'iban gb82west12345698765432')).toEqual(['gb82west12345698765432']);
    expect(found('iban', 'iban: de89 3704 0044 0532 0130 01')).toEqual([]);
  });

  it('finds 12-digit Maestro numbers with a valid Luhn digit, and no other 12-digit number', () => {
    expect(luhnValid('675964982648')).toBe(true);
    expect(found('payment_card', 'Maestro card 6759 6498 2648 was used')).toEqual(['6759 6498 2648']);
    expect(found('payment_card', 'card 6759 6498 2647 was used')).toEqual([]);
    expect(luhnValid('411111111117')).toBe(true);
    expect(found('payment_card', 'reference 4111 1111 1117')).toEqual([]);
  });

  it('takes a date for a birth date only near a birth cue', () => {
    expect(found('date_of_birth', 'She was born on March 3, 1985 in Ohio.')).toEqual(['March 3, 1985']);
    expect(found('date_of_birth', 'DOB 03/04/1979')).toEqual(['03/04/1979']);
    expect(found('date_of_birth', 'Geburtsdatum: 12.05.1961')).toEqual(['12.05.1961']);
    expect(found('date_of_birth', 'The meeting on March 3, 1985 ran long.')).toEqual([]);
  });
});

describe('values broken across lines', () => {
  const wrapped: [string, BuiltinEntityKind, string[]][] = [
    ['ssn', 'ssn', ['Her SSN is 123-45-', '6789 per the file.']],
    ['phone', 'phone', ['Please call me at (217) 555-', '0143 tomorrow.']],
    ['card', 'payment_card', ['Card number 4111 1111', '1111 1111 was charged.']],
    ['iban', 'iban', ['Pay to IBAN DE89 3704 0044', '0532 0130 00 by Friday.']],
    ['name', 'person_name', ['The report was signed by Detective Maria', 'Gonzalez on Monday.']],
    ['hyphenated name', 'person_name', ['Witness statement taken from Mr. Alexander Ivano-', 'vich at the scene.']],
  ];
  for (const [label, kind, lines] of wrapped) {
    it(`${label}: one finding with a box on each line`, () => {
      const findings = detectPages([page(lines)], plan([kind]));
      expect(findings, JSON.stringify(findings)).toHaveLength(1);
      const boxes = findings[0]?.boxes ?? [];
      expect(boxes).toHaveLength(2);
      expect(boxes[0]?.y1).toBe(boxOf(0, 0, 1).y1);
      expect(boxes[1]?.y1).toBe(boxOf(1, 0, 1).y1);
      // The second piece starts the line.
      expect(boxes[1]?.x1).toBe(boxOf(1, 0, 1).x1);
    });
  }

  it('two unrelated numbers on separate lines stay apart', () => {
    expect(detectPages([page(['Total 48 items', '2 boxes left'])], plan(['phone']))).toEqual([]);
  });
});

describe('fewer false positives', () => {
  it('leaves organisations, products, places and title-case headings alone', () => {
    const texts = [
      'Morgan Stanley and Lincoln Financial Group filed the report.',
      'Johnson Controls Inc. and Procter & Gamble signed the lease.',
      'ANNUAL BUDGET REVIEW SUMMARY',
      'Annual Budget Review And Capital Plan',
      'The files were opened in Microsoft Word and Adobe Acrobat.',
      'The delegation travelled from Springfield to Chicago.',
      'Department of Public Works',
    ];
    for (const text of texts) expect(found('person_name', text), text).toEqual([]);
  });

  it('still finds the people in the same kind of text', () => {
    expect(found('person_name', 'Morgan Stanley analyst Priya Raman filed the report.')).toEqual(['Priya Raman']);
    expect(found('person_name', 'Dear Mr. Okafor,')).toEqual(['Okafor']);
    expect(found('person_name', 'Name: OKONKWO, ÉMILIE\nSex: F')).toEqual(['OKONKWO, ÉMILIE']);
  });
});

describe('confidence and provenance', () => {
  it('every finding names the rule or model that made it', () => {
    const text = 'Complainant Dana Whitfield (DOB 04/02/1981) called from 217-555-0143, SSN 123-45-6789.';
    const candidates = detectInText(text, plan());
    expect(candidates.length).toBeGreaterThanOrEqual(4);
    for (const candidate of candidates) expect(candidate.rule, JSON.stringify(candidate)).toMatch(/^(?:model|rule|pattern|template):[a-z0-9_:+-]+$/);
    expect(candidates.find((candidate) => candidate.entity === 'person_name')?.rule).toMatch(/^model:ner-perceptron/);
    expect(candidates.find((candidate) => candidate.entity === 'phone')?.rule).toBe('pattern:phone-nanp');
  });

  it('an e-mail local part on the page backs the name it spells', () => {
    const alone = detectInText('Notes from Ilse Brandvold on the meeting.', plan(['person_name']));
    const backed = detectInText('Notes from Ilse Brandvold on the meeting. Reply to ibrandvold@example.org', plan(['person_name']));
    expect(backed[0]?.cues).toContain('e-mail');
    expect(backed[0]?.score).toBeGreaterThan(alone[0]?.score ?? 1);
  });

  it('a higher minimum confidence keeps only the surer findings', () => {
    const text = 'Contact 555-123-4567. Ticket 555 123 4567. Call 217-555-0143.';
    const loose = detectInText(text, plan(['phone'], 0.3)).map((candidate) => candidate.score);
    const strict = detectInText(text, plan(['phone'], 0.95));
    expect(loose.length).toBeGreaterThan(strict.length);
    expect(strict.map((candidate) => text.slice(candidate.start, candidate.end))).toEqual(['217-555-0143']);
  });

  it('all kinds together: overlaps resolved to the more specific kind', () => {
    expect(all('SSN 123-45-6789, card 4111 1111 1111 1111')).toEqual(['ssn:123-45-6789', 'payment_card:4111 1111 1111 1111']);
  });
});
