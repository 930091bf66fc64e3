/** Luhn (mod 10) check of a digit string, as payment card numbers carry it. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Issuer prefixes (IIN ranges) and lengths of the card networks in general use. */
export function cardNetwork(digits: string): string | null {
  const length = digits.length;
  const prefix = (count: number) => Number(digits.slice(0, count));
  if (/^4/.test(digits) && (length === 13 || length === 16 || length === 19)) return 'visa';
  if (length === 16 && ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720))) return 'mastercard';
  if (length === 15 && /^3[47]/.test(digits)) return 'amex';
  if ((length === 16 || length === 19) && (/^6011/.test(digits) || /^65/.test(digits) || (prefix(3) >= 644 && prefix(3) <= 649))) return 'discover';
  if ((length === 14 || length === 16) && /^3(0[0-5]|[689])/.test(digits)) return 'diners';
  if (length >= 16 && length <= 19 && prefix(4) >= 3528 && prefix(4) <= 3589) return 'jcb';
  if (length >= 16 && length <= 19 && /^62/.test(digits)) return 'unionpay';
  if (length >= 12 && length <= 19 && /^(5018|5020|5038|6304|6759|676[1-3])/.test(digits)) return 'maestro';
  return null;
}

/** IBAN length per country (ISO 13616 registry). */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28,
  CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18,
  GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32,
  LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24,
  PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28,
  TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

export function ibanLength(country: string): number | null {
  return IBAN_LENGTHS[country] ?? null;
}

/** ISO 7064 mod 97-10 check of an IBAN without spaces: letters become 10..35, the first four characters go last. */
export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  if (ibanLength(iban.slice(0, 2)) !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : char.charCodeAt(0) - 48;
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/**
 * ABA routing transit number: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10), and the first two
 * digits in a Federal Reserve range (01–12 banks, 21–32 thrifts, 61–72 electronic, 80 traveller's cheques).
 */
export function abaValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const d = [...digits].map(Number) as [number, number, number, number, number, number, number, number, number];
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  if (sum % 10 !== 0) return false;
  const prefix = d[0] * 10 + d[1];
  return (prefix >= 1 && prefix <= 12) || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
}

/** SSA rules: area not 000, 666 or 900–999; group not 00; serial not 0000. */
export function ssnValid(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  return a !== 0 && a !== 666 && a < 900 && Number(group) !== 0 && Number(serial) !== 0;
}
