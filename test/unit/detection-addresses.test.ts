import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskPage } from '../../main/common/analysis-tasks.js';
import type { BuiltinEntityKind, DetectionPlan } from '../../main/common/schemas/detection.js';
import { detectInText, detectPages } from '../../worker/detection/index.js';
import { layoutPage } from '../helpers/page-layout.js';
import { pdflatex } from '../helpers/burn-producers.js';
import { ocrScanPage, pdfTextPage, someBoxCovers } from '../helpers/wrapped-pages.js';

// International postal address shapes (issue 20), written for these tests from the countries' postal
// formats: a unit before the street, the town and postcode after it (also on the next lines), street types
// and postcodes of each country, comma chains closed by an Indian PIN or a Japanese or Korean postcode.
// Each shape has look-alikes that must stay unmarked.

const plan = (kinds: readonly BuiltinEntityKind[], minScore = 0.5): DetectionPlan => ({ entityKinds: [...kinds], minScore, customTerms: [], patterns: [] });
const found = (text: string) => detectInText(text, plan(['street_address'])).map((candidate) => text.slice(candidate.start, candidate.end));
const page = (lines: string[]): TaskPage => ({ page_number: 1, unit: 'pdf_points', rotation: 0, ...layoutPage(lines) });

describe('UK and Irish addresses', () => {
  it('takes the town and postcode after the street, with a flat before it', () => {
    expect(found('Please write to 14 Larkspur Road, Bristol BS8 1QU today.')).toEqual(['14 Larkspur Road, Bristol BS8 1QU']);
    expect(found('Address: Flat 5, 23 Kingsley Street, Oxford OX2 6HT')).toEqual(['Flat 5, 23 Kingsley Street, Oxford OX2 6HT']);
    expect(found('9 Mill Lane, Upper Woodford, Wiltshire SP4 6NX')).toEqual(['9 Mill Lane, Upper Woodford, Wiltshire SP4 6NX']);
    expect(found('Home: 31 Elmfield Gardens, Harrogate HG1 2RT, United Kingdom')).toEqual(['31 Elmfield Gardens, Harrogate HG1 2RT, United Kingdom']);
  });

  it('reads an Eircode and a Dublin district', () => {
    expect(found('Address: 6 Harbour View, Westport, Co. Mayo, F28 K2W9')).toEqual(['6 Harbour View, Westport, Co. Mayo, F28 K2W9']);
    expect(found('4 Seafield Terrace, Dublin 4, D04 W2K7')).toEqual(['4 Seafield Terrace, Dublin 4, D04 W2K7']);
  });

  it('joins a street line, a town line and a postcode line into one suggestion', () => {
    expect(found('Address: 7 Primrose Gardens\nSalford\nM6 8PL')).toEqual(['7 Primrose Gardens\nSalford\nM6 8PL']);
    const findings = detectPages([page(['Send it to 52 Ashgrove Parade', 'Leicester LE2 3FJ', 'Thanks.'])], plan(['street_address']));
    expect(findings).toHaveLength(1);
    expect(findings[0]?.boxes).toHaveLength(2);
  });

  it('reads a Spanish nº', () => {
    expect(found('Calle Mayor, nº 5, 28013 Madrid')).toEqual(['Calle Mayor, nº 5, 28013 Madrid']);
    expect(found('He finished 1st Main Street race')).toEqual([]);
    expect(found('See Section 4a Main Street Improvements.')).toEqual([]);
  });

  it('takes an address with no house number when a UK postcode or an Eircode closes it', () => {
    expect(found('Rose Cottage, Mill Lane, Little Snoring, Norfolk NR21 0AA')).toEqual(['Rose Cottage, Mill Lane, Little Snoring, Norfolk NR21 0AA']);
    expect(found('Address: The Old Rectory, Church Road\nAmbleside\nLA22 9BU')).toEqual(['The Old Rectory, Church Road\nAmbleside\nLA22 9BU']);
    expect(found('Seaview House, Strand Road, Sligo F91 K2X4')).toEqual(['Seaview House, Strand Road, Sligo F91 K2X4']);
    expect(found('We walked down Abbey Road in London.')).toEqual([]);
    expect(found('The Green Party met in London SW1A 0AA')).toEqual([]);
  });

  it('does not take a postcode-like product code, a bare town or a count for an address', () => {
    expect(found('Order 12345 London SW1A was shipped.')).toEqual([]);
    expect(found('Model SW1A 2AA3 ships in May.')).toEqual([]);
    expect(found('She grew up in Harrogate and Dublin.')).toEqual([]);
    // The count is no house number; the place with its full postcode is still an address.
    expect(found('It is 3 miles past Forest Hill, London SE23 3HZ.')).toEqual(['Forest Hill, London SE23 3HZ']);
    expect(found('Since 2004 Olympic Park hosted games.')).toEqual([]);
    expect(found('the 1996 Olympic Village opened')).toEqual([]);
  });
});

describe('German, Austrian, Swiss, Dutch and Nordic addresses', () => {
  it('finds the number after the street and the postcode before the town', () => {
    expect(found('Wohnhaft Lindenstraße 5, 80331 München')).toEqual(['Lindenstraße 5, 80331 München']);
    expect(found('Schillerstr. 14a, D-70173 Stuttgart')).toEqual(['Schillerstr. 14a, D-70173 Stuttgart']);
    expect(found('Bahnhofstrasse 21\nCH-8001 Zürich')).toEqual(['Bahnhofstrasse 21\nCH-8001 Zürich']);
    expect(found('Kerkstraat 12, 1012 AB Amsterdam')).toEqual(['Kerkstraat 12, 1012 AB Amsterdam']);
    expect(found('Karl Johans gate 22, 0159 Oslo')).toEqual(['Karl Johans gate 22, 0159 Oslo']);
    expect(found('Drottninggatan 10, 111 51 Stockholm')).toEqual(['Drottninggatan 10, 111 51 Stockholm']);
  });

  it('takes a street named with a preposition only with its postcode and town', () => {
    expect(found('Kontakt: An der Alster 40, 20099 Hamburg')).toEqual(['An der Alster 40, 20099 Hamburg']);
    expect(found('Unter den Linden 77, 10117 Berlin')).toEqual(['Unter den Linden 77, 10117 Berlin']);
    expect(found('Am Montag 3 Termine, im Jahr 2020 mehr.')).toEqual([]);
    expect(found('Im Kapitel 4 steht es.')).toEqual([]);
  });
});

describe('French, Spanish, Italian and Portuguese addresses', () => {
  it('finds the type word forms with their postcodes', () => {
    expect(found('12 rue de la Paix, 75002 Paris')).toEqual(['12 rue de la Paix, 75002 Paris']);
    expect(found('8 impasse des Lilas, F-13001 Marseille')).toEqual(['8 impasse des Lilas, F-13001 Marseille']);
    expect(found('C/ Gran Vía 32, 3º B, 28013 Madrid')).toEqual(['C/ Gran Vía 32, 3º B, 28013 Madrid']);
    expect(found('Via Garibaldi 22, scala B, 20121 Milano')).toEqual(['Via Garibaldi 22, scala B, 20121 Milano']);
    expect(found('Rua Augusta 100, 1100-053 Lisboa')).toEqual(['Rua Augusta 100, 1100-053 Lisboa']);
    expect(found('Avenida Paulista 1578, São Paulo - SP, 01310-200')).toEqual(['Avenida Paulista 1578, São Paulo - SP, 01310-200']);
  });

  it('does not take dates, money or section numbers for addresses', () => {
    expect(found('The meeting is on 12 March 2020 in Paris.')).toEqual([]);
    expect(found('Paid 75002 EUR to the Paris office.')).toEqual([]);
    expect(found('See section 12, 75002 entries, Paris annex.')).toEqual([]);
  });
});

describe('Canadian, Australian and New Zealand addresses', () => {
  it('reads provinces, states and their postcodes after the street', () => {
    expect(found('Mail: 150 Elgin St, Ottawa ON K2P 1L4')).toEqual(['150 Elgin St, Ottawa ON K2P 1L4']);
    expect(found('1234 rue Sainte-Catherine Ouest, Montréal, QC H3G 1P1')).toEqual(['1234 rue Sainte-Catherine Ouest, Montréal, QC H3G 1P1']);
    expect(found('Home: 12 Wattle Street, Sydney NSW 2000')).toEqual(['12 Wattle Street, Sydney NSW 2000']);
    expect(found('Unit 7, 22 Banksia Road, Parramatta NSW 2150')).toEqual(['Unit 7, 22 Banksia Road, Parramatta NSW 2150']);
    expect(found('7/15 Ocean Parade, Coogee NSW 2034')).toEqual(['7/15 Ocean Parade, Coogee NSW 2034']);
  });

  it('keeps a unit before a US street too, also on the line above it', () => {
    expect(found('Apt. 3B, 500 Linden Street')).toEqual(['Apt. 3B, 500 Linden Street']);
    expect(found('Suite 200\n1234 Cedar Street\nAustin, TX 78701')).toEqual(['Suite 200\n1234 Cedar Street\nAustin, TX 78701']);
    expect(found('Unit 7 - 22 Banksia Road')).toEqual(['Unit 7 - 22 Banksia Road']);
    expect(found('1600 Quincy Ave, Washington, D.C. 20500')).toEqual(['1600 Quincy Ave, Washington, D.C. 20500']);
  });

  it('does not read a date before a street name as a unit', () => {
    expect(found('On 3/15 Main Street was closed.')).toEqual([]);
  });
});

describe('Indian, Japanese and Korean comma chains', () => {
  it('finds chains closed by a PIN or a postcode', () => {
    expect(found('Address: 221, MG Road, Bengaluru 560001')).toEqual(['221, MG Road, Bengaluru 560001']);
    expect(found('Flat No. 12, Shanti Apartments, Andheri West, Mumbai - 400058')).toEqual(['Flat No. 12, Shanti Apartments, Andheri West, Mumbai - 400058']);
    expect(found('H.No. 3-4-56, Barkatpura, Hyderabad, Telangana 500027')).toEqual(['H.No. 3-4-56, Barkatpura, Hyderabad, Telangana 500027']);
    expect(found('2-3-1 Nishi-Shinjuku, Shinjuku-ku, Tokyo 163-8001')).toEqual(['2-3-1 Nishi-Shinjuku, Shinjuku-ku, Tokyo 163-8001']);
    expect(found('〒150-0002 Shibuya 2-21-1, Shibuya-ku, Tokyo')).toEqual(['〒150-0002 Shibuya 2-21-1, Shibuya-ku, Tokyo']);
    expect(found('17 Sejong-daero, Jongno-gu, Seoul 03172')).toEqual(['17 Sejong-daero, Jongno-gu, Seoul 03172']);
  });

  it('finds a chain wrapped across lines', () => {
    expect(found('Plot No. 7, Sector 18,\nGurgaon, Haryana 122015')).toEqual(['Plot No. 7, Sector 18,\nGurgaon, Haryana 122015']);
  });

  it('does not take lists, scores or totals for a chain', () => {
    expect(found('In 2019, Sales, Marketing, Revenue 350000')).toEqual([]);
    expect(found('Items 12, 14, 16, Total 123456')).toEqual([]);
    expect(found('Scores 2-1, 3-0, Tokyo 2020')).toEqual([]);
    expect(found('Chapter 3, Rule 4, Section 5-2')).toEqual([]);
    expect(found('Visit 4, Acme Corp, Osaka 2025')).toEqual([]);
  });
});

describe('addresses written in lower case', () => {
  it('finds them after an address cue only', () => {
    expect(found('yeah i live at 42 maple street now')).toEqual(['42 maple street']);
    expect(found('we bought 5 new street lights')).toEqual([]);
    expect(found('take 2 main road exits')).toEqual([]);
  });
});

describe('post boxes and military mail', () => {
  it('reads post boxes in several languages with their postcode and town', () => {
    expect(found('Postfach 10 01 22, 50441 Köln')).toEqual(['Postfach 10 01 22, 50441 Köln']);
    expect(found('Boîte postale 45, 75001 Paris')).toEqual(['Boîte postale 45, 75001 Paris']);
    expect(found('Apartado de Correos 123, 28080 Madrid')).toEqual(['Apartado de Correos 123, 28080 Madrid']);
    expect(found('Casella Postale 12, 00100 Roma')).toEqual(['Casella Postale 12, 00100 Roma']);
    expect(found('Reply to POB 55, Reno NV 89501')).toEqual(['POB 55, Reno NV 89501']);
    // Offshore box numbers carry letters after the digits.
    expect(found('Write to P.O. Box 3391KY soon')[0]).toMatch(/^P\.O\. Box 3391/);
  });

  it('joins the lines of a military address', () => {
    expect(found('PSC 4102, Box 77\nAPO AE 09123')).toEqual(['PSC 4102, Box 77\nAPO AE 09123']);
    expect(found('USNS Mercy\nFPO AP 96670')).toEqual(['USNS Mercy\nFPO AP 96670']);
  });

  it('takes a New Zealand town and postcode only with the country', () => {
    expect(found('10 Kauri Street, Auckland 1010, New Zealand')).toEqual(['10 Kauri Street, Auckland 1010, New Zealand']);
    expect(found('10 Kauri Street, Auckland 1010 runners')).toEqual(['10 Kauri Street']);
  });

  it('reads Australian, rural-route and private mail bags and boxes', () => {
    expect(found('GPO Box 1234, Sydney NSW 2001')).toEqual(['GPO Box 1234, Sydney NSW 2001']);
    expect(found('Locked Bag 5, Parramatta NSW 2124')).toEqual(['Locked Bag 5, Parramatta NSW 2124']);
    expect(found('RR 2, Box 152, Millbrook, AL 36054')).toEqual(['RR 2, Box 152, Millbrook, AL 36054']);
    expect(found('Mix HC 12 for 30 minutes')).toEqual([]);
  });

  it('does not take a form box or a tick box for a post box', () => {
    expect(found('Enter the amount from box 14 on line 7.')).toEqual([]);
    expect(found('Tick box 6a if married.')).toEqual([]);
  });
});

describe('streets without a known type word, told by the postcode after them', () => {
  it('takes a UK street name with its town and postcode, and a European name, number, postcode and town', () => {
    expect(found('Send to 42 Kingsway, Manchester M19 2LL')).toEqual(['42 Kingsway, Manchester M19 2LL']);
    expect(found('5 The Broadway, London N8 8DU')).toEqual(['5 The Broadway, London N8 8DU']);
    expect(found('Anschrift: Rosenthaler 40, 10178 Berlin')).toEqual(['Rosenthaler 40, 10178 Berlin']);
    expect(found('Mariahilfer 12/3/7, 1060 Wien')).toEqual(['Mariahilfer 12/3/7, 1060 Wien']);
    expect(found('HAUPTSTRASSE 5, 10115 BERLIN')).toEqual(['HAUPTSTRASSE 5, 10115 BERLIN']);
    expect(found('Pieter Hooft 40\n1071 Amsterdam')).toEqual(['Pieter Hooft 40\n1071 Amsterdam']);
  });

  it('does not take document parts, codes in capitals or counts before a number for a street', () => {
    expect(found('Chapter 12, 10115 Berlin')).toEqual([]);
    expect(found('Gate 12, 1000 Brussels')).toEqual([]);
    expect(found('Table 3, 1500 Rows')).toEqual([]);
    expect(found('RP 500539 WFS LA and DP 500540 EPNG/BLANCO')).toEqual([]);
    expect(found('Python 3 1000 Times faster')).toEqual([]);
    expect(found('Meet 2 Friends in London NW1 6XE')).toEqual([]);
  });
});

describe('Central and Eastern European, Turkish and Latin American streets', () => {
  it('reads type words after the name, No: numbers, six-digit postcodes and grid addresses', () => {
    expect(found('Andrássy út 22, 1061 Budapest')).toEqual(['Andrássy út 22, 1061 Budapest']);
    expect(found('Václavské náměstí 1, 110 00 Praha')).toEqual(['Václavské náměstí 1, 110 00 Praha']);
    expect(found('Atatürk Caddesi No: 12, 34000 İstanbul')).toEqual(['Atatürk Caddesi No: 12, 34000 İstanbul']);
    expect(found('Strada Lipscani 5, 030031 București')).toEqual(['Strada Lipscani 5, 030031 București']);
    expect(found('Prinsengracht 263-267, 1016 GV Amsterdam')).toEqual(['Prinsengracht 263-267, 1016 GV Amsterdam']);
    expect(found('Oficina: Calle 26 # 13-19, Bogotá')).toEqual(['Calle 26 # 13-19']);
    expect(found('Carrera 7 No. 71-21')).toEqual(['Carrera 7 No. 71-21']);
  });

  it('keeps door, staircase and flat numbers and a colonia or bairro before the postcode', () => {
    expect(found('Mariahilfer Straße 12, Stiege 2, Top 5, 1060 Wien')).toEqual(['Mariahilfer Straße 12, Stiege 2, Top 5, 1060 Wien']);
    expect(found('Calle de Alcalá 45, 3º B, 28014 Madrid')).toEqual(['Calle de Alcalá 45, 3º B, 28014 Madrid']);
    expect(found('Av. Insurgentes Sur 1602, Col. Crédito Constructor, 03940 Ciudad de México')).toEqual(['Av. Insurgentes Sur 1602, Col. Crédito Constructor, 03940 Ciudad de México']);
    expect(found('Rua Augusta 100, Bairro Centro, 01305-000 São Paulo')).toEqual(['Rua Augusta 100, Bairro Centro, 01305-000 São Paulo']);
    // Alone, a door number before a postcode is no street.
    expect(found('Top 5, 1060 Wien')).toEqual([]);
  });

  it('does not take a score or a page reference for a grid address', () => {
    expect(found('Score 26 # 13-19 at half time')).toEqual([]);
    expect(found('Page 3 Calle 5 is a film title')).toEqual([]);
  });
});

// A UK and a Dutch address that the layout breaks across lines, as pdfTeX sets them.
const WRAPPED_TEX = ['\\noindent Please post the forms to Flat 5, 23 Kingsley Street,\\\\', 'Oxford OX2 6HT before Friday, or to Kerkstraat 12,\\\\', '1012 AB Amsterdam on Monday.'].join('\n');
const WRAPPED = [['Flat', '6HT'], ['Kerkstraat', 'Amsterdam']] as const;

function expectWrapped(input: TaskPage) {
  const findings = detectPages([input], plan(['street_address']));
  expect(findings, JSON.stringify(findings)).toHaveLength(2);
  const wordOf = (text: string) => input.words.find((word) => word.text === text);
  for (const [index, [first, last]] of WRAPPED.entries()) {
    const boxes = findings[index]?.boxes ?? [];
    expect(boxes).toHaveLength(2);
    for (const piece of [first, last]) {
      const word = wordOf(piece);
      expect(word, piece).toBeDefined();
      expect(someBoxCovers(boxes, word), piece).toBe(true);
    }
  }
}

describe('international addresses wrapped across lines in a real PDF and in an OCR scan of it', () => {
  let pdf: Buffer;
  beforeAll(() => {
    pdf = pdflatex(WRAPPED_TEX);
  }, 60_000);

  it('pdfTeX PDF, poppler\'s words and boxes: one finding per address, a box per line', () => {
    expectWrapped(pdfTextPage(pdf));
  }, 60_000);

  it('the page rendered by pdftoppm and read by tesseract, boxes in image pixels', () => {
    expectWrapped(ocrScanPage(pdf));
  }, 120_000);
});
