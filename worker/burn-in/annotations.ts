import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFString, type PDFContext, type PDFObject, type PDFPageLeaf } from 'pdf-lib';

// Annotations that show something are flattened into a copied page: each normal appearance stream is drawn
// from the page content as a form, placed in its /Rect as viewers place it (ISO 32000-2, 12.5.5), so the page
// can be copied (and redacted in its content) instead of rendered. The annotations themselves stay behind.

/** XObject names of flattened appearances begin so (the content rewriting reads them by the fonts' metrics). */
export const APPEARANCE_PREFIX = 'ObscuraAnnot';

const HIDDEN = 2;
const NO_VIEW = 32;
/** Drawn by no viewer from the page (a pop-up shows when opened). */
const NEVER_DRAWN = new Set(['Popup']);
/**
 * Types viewers draw on the page without an appearance stream (they make one up, as pdf.js does): such a page
 * cannot be flattened here. Others (notes, attachments) show only as icons of the viewer's own, left out.
 */
const DRAWN_WITHOUT_APPEARANCE = new Set(['Widget', 'Square', 'Circle', 'Line', 'Polygon', 'PolyLine', 'Ink', 'Highlight', 'Underline', 'StrikeOut', 'Squiggly', 'FreeText']);

export interface AppearanceDraw {
  name: string;
  ref: PDFRef;
  /** Maps the form (after its own /Matrix) into the annotation's rectangle. */
  matrix: [number, number, number, number, number, number];
}

function resolve(context: PDFContext, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? context.lookup(object) : object;
}

function numbers(context: PDFContext, object: PDFObject | undefined, count: number): number[] | null {
  const array = resolve(context, object);
  if (!(array instanceof PDFArray) || array.size() !== count) return null;
  const values = array.asArray().map((item) => resolve(context, item));
  return values.every((value) => value instanceof PDFNumber) ? values.map((value) => (value as PDFNumber).asNumber()) : null;
}

/** The normal appearance of an annotation: the stream itself, or the one its /AS names. */
function normalAppearance(context: PDFContext, annotation: PDFDict): PDFRef | null {
  const appearances = resolve(context, annotation.get(PDFName.of('AP')));
  if (!(appearances instanceof PDFDict)) return null;
  const normal = appearances.get(PDFName.of('N'));
  if (normal instanceof PDFRef && resolve(context, normal) instanceof PDFRawStream) return normal;
  const states = resolve(context, normal);
  const state = resolve(context, annotation.get(PDFName.of('AS')));
  if (states instanceof PDFDict && state instanceof PDFName) {
    const chosen = states.get(state);
    if (chosen instanceof PDFRef && resolve(context, chosen) instanceof PDFRawStream) return chosen;
  }
  return null;
}

/** A field entry of a widget or of the fields above it (/Parent chain). */
function inherited(context: PDFContext, annotation: PDFDict, key: string): PDFObject | undefined {
  let node: PDFDict | undefined = annotation;
  for (let depth = 0; node && depth < 32; depth += 1) {
    const value = resolve(context, node.get(PDFName.of(key)));
    if (value !== undefined) return value;
    const parent = resolve(context, node.get(PDFName.of('Parent')));
    node = parent instanceof PDFDict ? parent : undefined;
  }
  return undefined;
}

/** A text or choice field with no value, or a button that is off: nothing of a value to show. */
function blankField(context: PDFContext, annotation: PDFDict): boolean {
  const kind = inherited(context, annotation, 'FT');
  const value = inherited(context, annotation, 'V');
  if (kind === PDFName.of('Btn')) {
    const state = resolve(context, annotation.get(PDFName.of('AS')));
    return (value === undefined || value === PDFName.of('Off')) && (state === undefined || state === PDFName.of('Off'));
  }
  if (kind !== PDFName.of('Tx') && kind !== PDFName.of('Ch')) return false;
  if (value === undefined) return true;
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText() === '';
  if (value instanceof PDFArray) return value.size() === 0;
  return false;
}

/** Whether the widget asks for a border or background colour (/MK /BC, /BG), which viewers draw without an appearance. */
function framed(context: PDFContext, annotation: PDFDict): boolean {
  const look = resolve(context, annotation.get(PDFName.of('MK')));
  if (!(look instanceof PDFDict)) return false;
  return ['BC', 'BG'].some((key) => {
    const colour = resolve(context, look.get(PDFName.of(key)));
    return colour instanceof PDFArray && colour.size() > 0;
  });
}

/**
 * The appearances a viewer draws for the page's annotations, in order, with their placement; a string (the
 * reason) when one cannot be drawn from the file alone (`needAppearances`: the AcroForm's flag).
 */
export function appearanceDraws(context: PDFContext, page: PDFPageLeaf, taken: (name: string) => boolean, needAppearances = false): AppearanceDraw[] | string {
  const list = resolve(context, page.get(PDFName.of('Annots')));
  if (!(list instanceof PDFArray)) return [];
  const draws: AppearanceDraw[] = [];
  let suffix = 1;
  for (const entry of list.asArray()) {
    const annotation = resolve(context, entry);
    if (!(annotation instanceof PDFDict)) continue;
    const flags = resolve(context, annotation.get(PDFName.of('F')));
    const flagBits = flags instanceof PDFNumber ? flags.asNumber() : 0;
    if ((flagBits & (HIDDEN | NO_VIEW)) !== 0) continue;
    const subtype = resolve(context, annotation.get(PDFName.of('Subtype')));
    const type = subtype instanceof PDFName ? subtype.decodeText() : '';
    if (NEVER_DRAWN.has(type)) continue;
    // Viewers then draw text fields as they make them up from the value, not by their stored appearances; an
    // empty field is drawn from its stored appearance (the two-way check compares both renderings anyway).
    if (type === 'Widget' && needAppearances && !blankField(context, annotation)) return 'the form asks viewers to make up its fields (NeedAppearances)';
    const ref = normalAppearance(context, annotation);
    if (!ref) {
      // A field without appearance, value, border or background: no viewer draws anything for it.
      if (type === 'Widget' && blankField(context, annotation) && !framed(context, annotation)) continue;
      if (DRAWN_WITHOUT_APPEARANCE.has(type)) return `a ${type} annotation has no appearance stream`;
      continue;
    }
    const form = context.lookup(ref) as PDFRawStream;
    const rect = numbers(context, annotation.get(PDFName.of('Rect')), 4);
    const bbox = numbers(context, form.dict.get(PDFName.of('BBox')), 4);
    if (!rect || !bbox) return `a ${type} annotation has no readable /Rect or appearance /BBox`;
    const [a, b, c, d, e, f] = numbers(context, form.dict.get(PDFName.of('Matrix')), 6) ?? [1, 0, 0, 1, 0, 0];
    const corners = [
      [bbox[0], bbox[1]],
      [bbox[2], bbox[1]],
      [bbox[0], bbox[3]],
      [bbox[2], bbox[3]],
    ].map(([x = 0, y = 0]) => [(a as number) * x + (c as number) * y + (e as number), (b as number) * x + (d as number) * y + (f as number)] as const);
    const tx1 = Math.min(...corners.map((point) => point[0]));
    const tx2 = Math.max(...corners.map((point) => point[0]));
    const ty1 = Math.min(...corners.map((point) => point[1]));
    const ty2 = Math.max(...corners.map((point) => point[1]));
    const [rx1, rx2] = [Math.min(rect[0] as number, rect[2] as number), Math.max(rect[0] as number, rect[2] as number)];
    const [ry1, ry2] = [Math.min(rect[1] as number, rect[3] as number), Math.max(rect[1] as number, rect[3] as number)];
    // An empty appearance box draws nothing.
    if (!(tx2 > tx1 && ty2 > ty1)) continue;
    const sx = (rx2 - rx1) / (tx2 - tx1);
    const sy = (ry2 - ry1) / (ty2 - ty1);
    let name = `${APPEARANCE_PREFIX}${suffix}`;
    while (taken(name)) name = `${APPEARANCE_PREFIX}${(suffix += 1)}`;
    suffix += 1;
    draws.push({ name, ref, matrix: [sx, 0, 0, sy, rx1 - tx1 * sx, ry1 - ty1 * sy] });
  }
  return draws;
}

/** Content drawing the appearances after the page's own (which it encloses in q … Q). */
export function appearanceContent(draws: readonly AppearanceDraw[]): string {
  const number = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(6).replace(/0+$/, '').replace(/\.$/, ''));
  return draws.map((draw) => `q ${draw.matrix.map(number).join(' ')} cm /${draw.name} Do Q`).join('\n');
}
