import { describe, expect, it } from 'vitest';
import type { BuiltinEntityKind, DetectionPlan } from '../../main/common/schemas/detection.js';
import { detectInText, detectPages } from '../../worker/detection/index.js';
import { layoutPage } from '../helpers/page-layout.js';

// Issue 28: addresses by the postal formats of each country group (libaddressinput), phones by shape and
// cue, and the look-alikes that must stay unmarked. Values written for these tests.

const plan = (kinds: readonly BuiltinEntityKind[]): DetectionPlan => ({ entityKinds: [...kinds], minScore: 0.5, customTerms: [], patterns: [] });
const ALL: BuiltinEntityKind[] = ['street_address', 'phone', 'person_name', 'date_of_birth', 'ssn', 'payment_card', 'email', 'ip_address'];
const found = (kind: BuiltinEntityKind, text: string) =>
  detectInText(text, plan(ALL))
    .filter((candidate) => candidate.entity === kind)
    .map((candidate) => text.slice(candidate.start, candidate.end));
const address = (text: string) => found('street_address', text);
const phones = (text: string) => found('phone', text);

describe('addresses by country group, from the postal formats', () => {
  it('North America: street, town, state or province and ZIP or postal code, with the country', () => {
    expect(address('Mail it to 1200 Larkin Street\nSan Francisco, CA 94109\nUSA')).toEqual(['1200 Larkin Street\nSan Francisco, CA 94109\nUSA']);
    expect(address('Send to 88 Maple Crescent\nOttawa ON K2P 1L4\nCanada today')).toEqual(['88 Maple Crescent\nOttawa ON K2P 1L4\nCanada']);
  });

  it('UK and Ireland: the post town and the postcode on lines of their own', () => {
    expect(address('Flat 2, 14 Mill Lane\nCambridge\nCB2 1RX\nUnited Kingdom')).toEqual(['Flat 2, 14 Mill Lane\nCambridge\nCB2 1RX\nUnited Kingdom']);
    expect(address('Rose House, 4 Church Street, Ludlow, SY8 1AP')).toEqual(['Rose House, 4 Church Street, Ludlow, SY8 1AP']);
  });

  it('Western Europe: the number after the street, the postcode before the town, state and country after', () => {
    expect(address('Via Garibaldi 12\n00153 Roma RM\nItalia')).toEqual(['Via Garibaldi 12\n00153 Roma RM\nItalia']);
    expect(address('Escriba a Calle de Alcalá, 45, 28014 Madrid para más datos.')).toEqual(['Calle de Alcalá, 45, 28014 Madrid']);
    expect(address('Kapelstraat 45 bus 3, 2000 Antwerpen, Belgique')).toEqual(['Kapelstraat 45 bus 3, 2000 Antwerpen, Belgique']);
  });

  it('Nordic: compound street types, country prefixes and three-digit Icelandic postcodes in a block', () => {
    expect(address('She lives at Solbakkvegen 14B, 5136 Mjølkeråen, Norge now.')).toEqual(['Solbakkvegen 14B, 5136 Mjølkeråen, Norge']);
    expect(address('Storgatan 5, SE-114 55 Stockholm, Sverige')).toEqual(['Storgatan 5, SE-114 55 Stockholm, Sverige']);
    expect(address('Hafnarstræti 9\n101 Reykjavík\nÍsland')).toEqual(['Hafnarstræti 9\n101 Reykjavík\nÍsland']);
    expect(address('Mannerheimintie 12 A 5\nFI-00100 Helsinki')).toEqual(['Mannerheimintie 12 A 5\nFI-00100 Helsinki']);
  });

  it('Greece and Cyprus: Greek and Latin script, postcodes with a space', () => {
    expect(address('Διεύθυνση: Ερμού 25, 105 63 Αθήνα')).toEqual(['Ερμού 25, 105 63 Αθήνα']);
    expect(address('Write to Odos Athinas 20\n105 54 Athina\nGreece')).toEqual(['Odos Athinas 20\n105 54 Athina\nGreece']);
    expect(address('Λεωφόρος Μακαρίου 15\n1065 Λευκωσία\nΚύπρος')).toEqual(['Λεωφόρος Μακαρίου 15\n1065 Λευκωσία\nΚύπρος']);
  });

  it('Central and Eastern Europe: ul., nr., house and orientation numbers, Hungarian dots', () => {
    expect(address('ul. Marszałkowska 10/12\n00-590 Warszawa')).toEqual(['ul. Marszałkowska 10/12\n00-590 Warszawa']);
    expect(address('Adresa: Vodičkova 681/14, 110 00 Praha 1')).toEqual(['Vodičkova 681/14, 110 00 Praha 1']);
    expect(address('Str. Lipscani nr. 5, 030031 București')).toEqual(['Str. Lipscani nr. 5, 030031 București']);
    expect(address('Budapest\nAndrássy út 22.\n1061\nMagyarország').some((value) => value.endsWith('Andrássy út 22.\n1061\nMagyarország'))).toBe(true);
  });

  it('Oceania: unit/house numbers, state and postcode, a New Zealand postcode in a block', () => {
    expect(address('Unit 5, 68 Beach Parade\nCoogee NSW 2034\nAustralia')).toEqual(['Unit 5, 68 Beach Parade\nCoogee NSW 2034\nAustralia']);
    expect(address('2/47 Ocean Road\nDunedin 9013\nNew Zealand')).toEqual(['2/47 Ocean Road\nDunedin 9013\nNew Zealand']);
  });

  it('Latin America: colonia and state after the town, a Chilean seven-digit postcode that is no phone', () => {
    expect(address('Calle Durango 120, Col. Roma, 06700 Cuauhtémoc, CDMX').some((value) => value.startsWith('Calle Durango 120, Col. Roma, 06700 Cuauhtémoc'))).toBe(true);
    const chile = 'Our office moved to Avenida Providencia 1208, 7500571 Providencia, Chile in May.';
    expect(address(chile)).toEqual(['Avenida Providencia 1208, 7500571 Providencia, Chile']);
    expect(phones(chile)).toEqual([]);
  });

  it('Asia: a Japanese block closed by its postcode on its own line, an Indian PIN with the state after', () => {
    const japan = 'Mailing address\n3-2-1 Nishi-Shinjuku\nShinjuku\n163-8001\nJapan';
    expect(address(japan)).toEqual(['3-2-1 Nishi-Shinjuku\nShinjuku\n163-8001\nJapan']);
    expect(phones(japan)).toEqual([]);
    expect(address('12, Brigade Road\nBengaluru 560025\nKarnataka')).toEqual(['12, Brigade Road\nBengaluru 560025\nKarnataka']);
  });

  it('military mail: unit or ship with its hull number over APO/FPO/DPO', () => {
    expect(address('USS Nimitz (CVN 68)\nFPO AP 96620-2820')).toEqual(['USS Nimitz (CVN 68)\nFPO AP 96620-2820']);
    expect(address('PSC 802 Box 74\nAPO AE 09499')).toEqual(['PSC 802 Box 74\nAPO AE 09499']);
    expect(address('Unit 2050\nDPO AE 09498')).toEqual(['Unit 2050\nDPO AE 09498']);
  });

  it('leaves counts, years, sections, dates and amounts before a town alone', () => {
    for (const text of [
      'Chapter 12, 2010 Vancouver hosted the games.',
      'Section 4, 114 55 Stockholm is cited twice.',
      'On 12 May 2020, 10115 Berlin residents voted.',
      'Table 3: 1500 Oslo households, 2019 census.',
      'Flight 2041, 0159 Oslo departs at 10:40.',
      'The grant of EUR 12000, 8001 Zurich paid it.',
      'Replace part 4411-22, 10115 Berlin warehouse.',
      'See 42 U.S.C. 1983, 2000 Sydney edition.',
      'Auckland 1010 runners finished first.',
    ]) {
      expect(address(text), text).toEqual([]);
    }
  });
});

describe('phones by shape and cue', () => {
  it('reads national, international (+ and 00) and local shapes', () => {
    expect(phones('Tel: (415) 555-0132')).toEqual(['(415) 555-0132']);
    expect(phones('Phone +44 20 7946 0018 after 9am')).toEqual(['+44 20 7946 0018']);
    expect(phones('Tel. 0049 30 12345678')).toEqual(['0049 30 12345678']);
    expect(phones('Fax: 01 42 68 53 00')).toEqual(['01 42 68 53 00']);
    expect(phones('Call (02) 9876 5432 for bookings.')).toEqual(['(02) 9876 5432']);
    expect(phones('Mobile: 001-415-555-0132')).toEqual(['001-415-555-0132']);
  });

  it('keeps the extension with the number', () => {
    expect(phones('Phone: 415-555-0132 ext. 204')).toEqual(['415-555-0132 ext. 204']);
    expect(phones('Tel: (415) 555-0132x1234.')).toEqual(['(415) 555-0132x1234']);
    expect(phones('Call +44 20 7946 0018 extension 12')).toEqual(['+44 20 7946 0018 extension 12']);
  });

  it('takes a number libphonenumber calls invalid when a cue marks it, with a lower score than a valid one', () => {
    const score = (text: string) => detectInText(text, plan(['phone']))[0]?.score ?? 0;
    expect(phones('Phone: (123) 456-7890')).toEqual(['(123) 456-7890']);
    expect(score('Phone: (123) 456-7890')).toBeLessThan(score('Phone: (415) 555-0132'));
  });

  it('takes a number alone in a contact block', () => {
    expect(phones('Regards,\nJordan Ellis\n40 Harbor Street\nPortland, ME 04101\n(207) 555-0188')).toEqual(['(207) 555-0188']);
  });

  it('leaves dates, amounts, part numbers, statute citations and versions alone', () => {
    for (const text of [
      'The invoice of 03/15/2024 came to $1,234,567.89 in all.',
      'Meeting of 2024-03-15 approved EUR 125 400,00.',
      'Replace part no. 9205-147-56 and P/N 451-2123-292 before shipping.',
      'Withheld under 42 U.S.C. § 1983 and 29 C.F.R. 1910.1200.',
      'See Cal. Gov. Code § 6254.21 and case no. 21-cv-04417.',
      'Build 4.12.345-6789 fixed the crash in module 605.144.8391.',
      'ISBN 978-0-306-40615-7 was cited.',
    ]) {
      expect(phones(text), text).toEqual([]);
    }
  });
});

describe('person names in technical prose', () => {
  const names = (text: string) => found('person_name', text);

  it('suggests no product, tool or code name (camel case, hyphenated tools, dotted identifiers)', () => {
    expect(names('SpiderMonkey and MakeIndex were rebuilt with LuaTeX last week.')).toEqual([]);
    expect(names('Load KOMA-Script before LuaTeX-ko, then call Name.Builtin twice.')).toEqual([]);
  });

  it('suggests no word the page writes in lower case or as a heading', () => {
    const text = '3.2 Specials\nThe driver reads specials from the file.\nSpecials Keys are listed below, and python runs them.\nPython Scripts are optional.';
    expect(names(text)).toEqual([]);
  });

  it('suggests no capitalised word repeated alone in technical text', () => {
    const text = 'Run \\usepackage{luacode} first. Luaotfload loads fonts. Luaotfload caches them; Luaotfload reads conf_file() then exits.';
    expect(names(text)).toEqual([]);
  });

  // Text with code in it (options, file names, calls): the precision rules for technical writing apply.
  const manual = (body: string) => `Run tool --verbose -o out.txt config.yaml, then parse_args() and main.py again.\n${body}`;

  it('suggests no name followed by a version number', () => {
    expect(names('We moved the build to Quill Harrow 2.14.1 after the review.')).toEqual([]);
    expect(names('Quill Harrow v3 is out; Tarven Mossly 1.0.2 follows.')).toEqual([]);
  });

  it('suggests no product, component or document name ending in a head noun', () => {
    expect(names('See the General Commands Manual for the rest.')).toEqual([]);
    expect(names('The Lucida Console and the Font Loader were left alone.')).toEqual([]);
    expect(names('Computer Modern Roman ships with it.')).toEqual([]);
  });

  it('takes a spelled-out rank before a term, or a title in capitals before a plain word, for no title', () => {
    expect(names(manual('The General Unicode tables and the Major Page Fault Count are shown.'))).toEqual([]);
    expect(names(manual('It also runs on MS Windows.'))).toEqual([]);
    expect(names('General Patton and Ms. Alvarez arrived.')).toEqual(['Patton', 'Alvarez']);
  });

  it('in text with code, suggests no unknown word alone or a pair whose last word the page writes in lower case', () => {
    expect(names(manual('Treats the file as text. Cancel stops it. Eiffel and Camellia are supported.'))).toEqual([]);
    expect(names(manual('Universal Ctags reads it; ctags then writes the tags file.'))).toEqual([]);
    expect(names(manual('See Addison-Wesley, 1986.'))).toEqual([]);
  });

  it('in text with code, still finds a surname cited as an author', () => {
    expect(names(manual('As Vaswani et al. showed, the cache helps.'))).toEqual(['Vaswani']);
  });

  it('still finds people named in technical prose, with and without cues', () => {
    expect(names(manual('The crash was reported by Maria Lopez on Monday.'))).toEqual(['Maria Lopez']);
    expect(names(manual('Thanks for the patch.\nSigned, John Carter'))).toEqual(['John Carter']);
    expect(names(manual('Written by Torbjorn Granlund and David MacKenzie.'))).toEqual(['Torbjorn Granlund', 'David MacKenzie']);
    expect(names(manual('Kjetil Homme wrote the first version of pgrep.'))).toEqual(['Kjetil Homme']);
  });

  it('suggests no word of a bare line of capitalised words (a word list, a title in title case)', () => {
    expect(names('Zwölftonmusik Elftonner Golftour Kaufleute Schifffahrt')).toEqual([]);
    expect(names('Using Tarven Mossly With Harrow Quill\nThe tool reads it.')).toEqual([]);
  });

  it('still finds people listed on a line of capitalised words, by commas, "and", "&", a known name or a cue', () => {
    expect(names('Manuel Pégourié-Gonnard & Élie Roux')).toEqual(['Manuel Pégourié-Gonnard', 'Élie Roux']);
    expect(names('Heiko Oberdiek and Élie Roux wrote it.')).toEqual(['Heiko Oberdiek', 'Élie Roux']);
    expect(names('Notes From The Meeting With Maria Lopez')).toEqual(['Maria Lopez']);
    expect(names('Common Specials (1)\nWitness Dorota Zawadzka (45) was present.')).toEqual(['Dorota Zawadzka']);
  });

  it('reads a number in brackets after a heading for no age', () => {
    expect(names('Common Specials (1)\nThe driver reads them.')).toEqual([]);
    expect(names('Bodnar Kesz (3/4/1980) was interviewed.')).toEqual(['Bodnar Kesz']);
  });

  // The worker gets all of a document's pages: how another page writes a word counts on this one.
  const documentNames = (pages: string[][]) =>
    detectPages(
      pages.map((lines, index) => ({ page_number: index + 1, unit: 'pdf_points' as const, rotation: 0, ...layoutPage(lines) })),
      plan(['person_name']),
    ).map((finding) => `${finding.page}: ${finding.boxes.length}`);

  it('reads a word as a term when another page of the document writes it in lower case, as a heading or among code', () => {
    const code = ['Run tool --verbose -o out.txt config.yaml, then parse_args() and main.py again.', 'Pass --dry-run to main.py first.'];
    // Page 1 has no code and writes its words only in capitals: alone, it would keep both.
    expect(documentNames([['Treats the file as text. Eiffel is supported too.'], code])).toEqual([]);
    expect(documentNames([['Harrow Quill reads them twice.'], ['The harrow and the quill are read too.']])).toEqual([]);
    expect(documentNames([['Harrow Quill reads them twice.'], ['Nothing else is read.']])).toEqual(['1: 1']);
  });

  it('still finds a person on a prose page of a document full of code', () => {
    const code = ['Run tool --verbose -o out.txt config.yaml, then parse_args() and main.py again.', 'Pass --dry-run to main.py first.'];
    expect(documentNames([['The crash was reported by Maria Lopez on Monday.'], code])).toEqual(['1: 1']);
    expect(documentNames([['Thanks for the patch.', 'Signed, John Carter'], code])).toEqual(['1: 1']);
  });

  it('still finds people in the same text, also with surname prefixes and hyphens', () => {
    const text = 'SpiderMonkey was written by Brendan Eich and tuned by Ellen McCloskey; Jean-Pierre Dupont reviewed it.';
    expect(names(text)).toEqual(['Brendan Eich', 'Ellen McCloskey', 'Jean-Pierre Dupont']);
  });
});

describe('boxes trimmed to the value', () => {
  it('leaves out angle brackets, quotes and trailing punctuation', () => {
    const lines = ['Contact <jo.smith@example.org>, or "Maria Gonzalez".'];
    const page = { page_number: 1, unit: 'pdf_points' as const, rotation: 0, ...layoutPage(lines) };
    const findings = detectPages([page], plan(['email', 'person_name']));
    const word = (text: string) => page.words.find((entry) => entry.text === text);
    const email = findings.find((finding) => finding.entity === 'email');
    const bracketed = word('<jo.smith@example.org>,');
    expect(email?.boxes[0]?.x1).toBeGreaterThan((bracketed?.x1 ?? 0) + 0.6 * ((bracketed?.x2 ?? 0) - (bracketed?.x1 ?? 0)) / 23);
    expect(email?.boxes[0]?.x2).toBeLessThan((bracketed?.x2 ?? 0) - ((bracketed?.x2 ?? 0) - (bracketed?.x1 ?? 0)) / 23);
    const text = lines[0] as string;
    expect(detectInText(text, plan(['email', 'person_name'])).map((candidate) => text.slice(candidate.start, candidate.end))).toEqual(['jo.smith@example.org', 'Maria Gonzalez']);
  });
});
