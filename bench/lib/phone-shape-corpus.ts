import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { rng, type Rng } from './detection-corpus.js';
import type { LabelledText } from './detection-external.js';

// Held-out phones by shape, generated: national and international layouts (published numbering-plan
// shapes: NANP, UK, German, French, Australian, Irish, Greek), 00 and + prefixes, extensions, numbers
// libphonenumber calls invalid but a cue marks as a phone, and look-alikes that carry no label (dates,
// amounts, part numbers, statute citations, versions). Nothing from realdata.

const int = (r: Rng, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
const d = (r: Rng, count: number) => Array.from({ length: count }, () => String(int(r, 0, 9))).join('');

export type PhoneShape = 'nanp' | 'international-plus' | 'international-00' | 'national-abroad' | 'extension' | 'invalid-with-cue' | 'contact-block';

const CUES = ['Tel:', 'Phone:', 'Call', 'Fax:', 'Mobile:', 'Cell', 'Tel.', 'T:', 'ph.', 'Telephone'];

/** A number of one shape. */
function number(r: Rng, shape: PhoneShape): string {
  const area = () => `${int(r, 2, 9)}${d(r, 2)}`;
  const exchange = () => `${int(r, 2, 9)}${d(r, 2)}`;
  switch (shape) {
    case 'nanp':
      return pick(r, [`(${area()}) ${exchange()}-${d(r, 4)}`, `${area()}-${exchange()}-${d(r, 4)}`, `${area()}.${exchange()}.${d(r, 4)}`, `1-${area()}-${exchange()}-${d(r, 4)}`, `+1 ${area()} ${exchange()} ${d(r, 4)}`, `(${area()})${exchange()}-${d(r, 4)}`, `+1-${area()}-${exchange()}-${d(r, 4)}`, `${area()} ${exchange()} ${d(r, 4)}`]);
    case 'international-plus':
      return pick(r, [`+44 20 7${d(r, 3)} ${d(r, 4)}`, `+49 30 ${d(r, 7)}`, `+33 1 ${d(r, 2)} ${d(r, 2)} ${d(r, 2)} ${d(r, 2)}`, `+61 2 9${d(r, 3)} ${d(r, 4)}`, `+353 1 ${d(r, 3)} ${d(r, 4)}`, `+30 21 0${d(r, 3)} ${d(r, 4)}`, `+46 8 ${d(r, 3)} ${d(r, 2)} ${d(r, 2)}`, `+49 (0)89 ${d(r, 6)}`]);
    case 'international-00':
      return pick(r, [`0044 20 7${d(r, 3)} ${d(r, 4)}`, `0049 30 ${d(r, 7)}`, `0033 1 ${d(r, 2)} ${d(r, 2)} ${d(r, 2)} ${d(r, 2)}`, `00 31 20 ${d(r, 3)} ${d(r, 4)}`, `0041 44 ${d(r, 3)} ${d(r, 2)} ${d(r, 2)}`, `001-${area()}-${exchange()}-${d(r, 4)}`]);
    case 'national-abroad':
      return pick(r, [`020 7${d(r, 3)} ${d(r, 4)}`, `030 ${d(r, 7)}`, `01 ${d(r, 2)} ${d(r, 2)} ${d(r, 2)} ${d(r, 2)}`, `(02) 9${d(r, 3)} ${d(r, 4)}`, `0${int(r, 6, 7)}${d(r, 2)} ${d(r, 3)} ${d(r, 3)}`, `210 ${d(r, 3)} ${d(r, 4)}`]);
    case 'extension':
      return `${pick(r, [`(${area()}) ${exchange()}-${d(r, 4)}`, `${area()}-${exchange()}-${d(r, 4)}`, `+44 20 7${d(r, 3)} ${d(r, 4)}`, `${area()}.${exchange()}.${d(r, 4)}`, `001-${area()}-${exchange()}-${d(r, 4)}`, `+1-${area()}-${exchange()}-${d(r, 4)}`])}${pick(r, [' ext. ', ' x', 'x', ' ext ', ' Ext. ', ' extension ', ' #'])}${d(r, int(r, 2, 5))}`;
    case 'invalid-with-cue':
      return pick(r, [`(${int(r, 0, 1)}${d(r, 2)}) ${d(r, 3)}-${d(r, 4)}`, `${int(r, 0, 1)}${d(r, 2)}-${d(r, 3)}-${d(r, 4)}`, `(${int(r, 0, 1)}${d(r, 2)})${d(r, 3)}-${d(r, 4)}`, `${int(r, 0, 1)}${d(r, 2)}.${d(r, 3)}.${d(r, 4)}`, `001-${int(r, 0, 1)}${d(r, 2)}-${d(r, 3)}-${d(r, 4)}x${d(r, 3)}`, `+1-${int(r, 0, 1)}${d(r, 2)}-${d(r, 3)}-${d(r, 4)}`, `+1 ${int(r, 0, 1)}${d(r, 2)} ${d(r, 3)} ${d(r, 4)}`, `+44 ${d(r, 3)} ${d(r, 3)} ${d(r, 2)}`, `555-${d(r, 4)}`]);
    case 'contact-block':
      return pick(r, [`(${area()}) ${exchange()}-${d(r, 4)}`, `+44 20 7${d(r, 3)} ${d(r, 4)}`, `${area()}-${exchange()}-${d(r, 4)}`]);
  }
}

export const PHONE_SHAPES: readonly PhoneShape[] = ['nanp', 'international-plus', 'international-00', 'national-abroad', 'extension', 'invalid-with-cue', 'contact-block'];

export interface GeneratedPhone extends LabelledText {
  shape: PhoneShape;
  valid: boolean;
}

/** Phone-shaped look-alikes with no phone in them. */
export function phoneLookAlikes(seed: number, count: number): LabelledText[] {
  const r = rng(seed);
  const make = () =>
    pick(r, [
      `The invoice of ${int(r, 1, 28)}/${int(r, 1, 12)}/20${d(r, 2)} came to $${int(r, 1, 999)},${d(r, 3)}.${d(r, 2)} in all.`,
      `Replace part no. ${d(r, 4)}-${d(r, 3)}-${d(r, 2)} and P/N ${d(r, 3)}-${d(r, 4)}-${d(r, 3)} before shipping.`,
      `Records were withheld under ${int(r, 5, 50)} U.S.C. § ${d(r, 3)}(b)(${int(r, 1, 9)}) and ${int(r, 10, 49)} C.F.R. ${d(r, 3)}.${d(r, 4)}.`,
      `The meeting of ${20}${d(r, 2)}-${String(int(r, 1, 12)).padStart(2, '0')}-${String(int(r, 1, 28)).padStart(2, '0')} approved EUR ${d(r, 3)} ${d(r, 3)},00.`,
      `Build ${int(r, 1, 9)}.${int(r, 0, 20)}.${d(r, 3)}-${d(r, 4)} fixed the crash in module ${d(r, 3)}.${d(r, 3)}.${d(r, 4)}.`,
      `See Cal. Gov. Code § ${d(r, 4)}.${d(r, 2)} and case no. ${d(r, 2)}-cv-${d(r, 5)} for details.`,
      `ISBN 978-${int(r, 0, 1)}-${d(r, 3)}-${d(r, 5)}-${int(r, 0, 9)}; serial ${d(r, 3)} ${d(r, 3)} ${d(r, 4)}.`,
    ]);
  return Array.from({ length: count }, () => ({ source: 'phone-look-alikes', text: make(), spans: [] }));
}

/** `count` phones per shape in short carrier texts, each labelled. */
export function generatePhones(seed: number, count: number): GeneratedPhone[] {
  const r = rng(seed);
  const out: GeneratedPhone[] = [];
  for (const shape of PHONE_SHAPES) {
    for (let index = 0; index < count; index += 1) {
      const value = number(r, shape);
      let before: string;
      let after = '';
      if (shape === 'contact-block') {
        // Name, street and town lines, then the number alone: a signature or letterhead without a cue word.
        before = `Regards,\nJordan Ellis\n${int(r, 10, 999)} Harbor Street\nPortland, ME 04101\n`;
      } else {
        const cue = pick(r, CUES);
        before = pick(r, [`${cue} `, `For questions ${cue.toLowerCase().replace(/[:.]$/, '')} `, `${cue} `]);
        if (/^call$/i.test(cue.trim())) before = `Please call `;
        after = pick(r, ['.', '', ' during office hours.', ',']);
      }
      const text = `${before}${value}${after}`;
      const valid = (() => {
        try {
          return isValidPhoneNumber(value.replace(/\s*(?:x|ext\.?|extension|#)\s*\d+$/i, '').replace(/^00\s?/, '+'), 'US');
        } catch {
          return false;
        }
      })();
      out.push({ source: `phones-${shape}`, shape, valid, text, spans: [{ start: before.length, end: before.length + value.length, kind: 'phone' }] });
    }
  }
  return out;
}
