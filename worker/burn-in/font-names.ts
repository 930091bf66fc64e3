import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, PDFString, type PDFContext, type PDFObject } from 'pdf-lib';
import { fold, MIN_NAME_NEEDLE, STANDARD_FONT_NAMES } from '../release-check/index.js';

// A font's name can repeat a word the clerk boxed: "Roman" in TimesNewRomanPSMT, "Serif" in DejaVuSerif. The
// release check searches font names for withheld text (worker/release-check/objects.ts), so such a release was
// refused. An embedded font is drawn from its own program, its name only labels it: the name (BaseFont, FontName,
// FontFamily) is replaced by a neutral one, its subset tag kept. A font that is not embedded is found by its
// name and keeps it; the standard 14 are vocabulary to the check, any other such name still refuses the release.

const SUBSET_TAG = /^[A-Z]{6}\+/u;

function lookup(context: PDFContext, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? context.lookup(object) : object;
}

function dictOf(context: PDFContext, object: PDFObject | undefined): PDFDict | undefined {
  const found = lookup(context, object);
  return found instanceof PDFDict ? found : undefined;
}

function embeddedDescriptor(context: PDFContext, descriptor: PDFDict | undefined): boolean {
  return descriptor !== undefined && ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.get(PDFName.of(key)) !== undefined);
}

/** Whether the font is drawn from a program in the file (Type 3 from its procedures; Type 0 from its descendant). */
function embedded(context: PDFContext, font: PDFDict): boolean {
  const subtype = font.get(PDFName.of('Subtype'));
  if (subtype === PDFName.of('Type3')) return true;
  if (subtype === PDFName.of('Type0')) {
    const descendants = lookup(context, font.get(PDFName.of('DescendantFonts')));
    const first = descendants instanceof PDFArray ? dictOf(context, descendants.get(0)) : undefined;
    return first !== undefined && embedded(context, first);
  }
  return embeddedDescriptor(context, dictOf(context, font.get(PDFName.of('FontDescriptor'))));
}

function textOf(object: PDFObject | undefined): string | null {
  if (object instanceof PDFName) return object.decodeText();
  if (object instanceof PDFString || object instanceof PDFHexString) return object.decodeText();
  return null;
}

/**
 * Renames every embedded font (and font descriptor) of the file whose BaseFont, FontName or FontFamily holds one
 * of the withheld texts, as the release check folds and matches them. Returns how many names were replaced.
 */
export function renameFontsCarrying(context: PDFContext, withheld: readonly string[]): number {
  const needles = [...new Set(withheld.map(fold))].filter((needle) => needle.length >= MIN_NAME_NEEDLE);
  if (needles.length === 0) return 0;
  const carries = (text: string | null) => text !== null && !STANDARD_FONT_NAMES.has(text) && needles.some((needle) => fold(text).includes(needle));
  const renamed = new Map<string, string>();
  const neutral = (name: string): string => {
    const known = renamed.get(name);
    if (known) return known;
    const tag = SUBSET_TAG.exec(name)?.[0] ?? '';
    let candidate = '';
    for (let index = renamed.size + 1; candidate === '' || carries(candidate); index += 1) candidate = `${tag}Font${index}`;
    renamed.set(name, candidate);
    return candidate;
  };
  let count = 0;
  /** Renames the name under `key` if it carries withheld text, to `replacement` or a new neutral name; returns the new name. */
  const rename = (dict: PDFDict, key: string, asName: boolean, replacement?: string): string | null => {
    const text = textOf(dict.get(PDFName.of(key)));
    if (!carries(text)) return null;
    const renamedTo = replacement ?? neutral(text as string);
    dict.set(PDFName.of(key), asName ? PDFName.of(renamedTo) : PDFString.of(renamedTo.replace(SUBSET_TAG, '')));
    count += 1;
    return renamedTo;
  };
  const isFont = (dict: PDFDict) => dict.get(PDFName.of('Type')) === PDFName.of('Font') || (dict.get(PDFName.of('BaseFont')) !== undefined && dict.get(PDFName.of('Subtype')) instanceof PDFName);
  const isDescriptor = (dict: PDFDict) => dict.get(PDFName.of('Type')) === PDFName.of('FontDescriptor') || (dict.get(PDFName.of('FontName')) !== undefined && dict.get(PDFName.of('Flags')) !== undefined);
  // Fonts may be direct objects inside a resource dictionary: every dictionary and array is walked, references
  // are left to their own turn as indirect objects.
  const seen = new Set<PDFObject>();
  const visit = (object: PDFObject | undefined): void => {
    if (object === undefined || seen.has(object)) return;
    if (object instanceof PDFArray) {
      seen.add(object);
      for (let index = 0; index < object.size(); index += 1) visit(object.get(index));
      return;
    }
    if (object instanceof PDFStream) {
      // A form's resources may hold fonts as direct objects.
      seen.add(object);
      visit(object.dict);
      return;
    }
    if (!(object instanceof PDFDict)) return;
    const dict = object;
    seen.add(dict);
    if (isFont(dict) && embedded(context, dict)) rename(dict, 'BaseFont', true);
    if (isDescriptor(dict) && embeddedDescriptor(context, dict)) {
      // The family follows the font's new name ("Times New Roman" of ABCDEF+TimesNewRomanPSMT becomes Font1).
      const fontName = rename(dict, 'FontName', true);
      rename(dict, 'FontFamily', false, fontName ?? undefined);
    }
    for (const value of dict.values()) visit(value);
  };
  for (const [, object] of context.enumerateIndirectObjects()) visit(object);
  return count;
}
