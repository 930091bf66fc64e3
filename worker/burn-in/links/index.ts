import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFString, type PDFContext, type PDFObject, type PDFPage } from 'pdf-lib';
import type { Rect } from '../geometry.js';
import { overlaps } from '../vector/geometry.js';
import { resolved } from '../vector/pdf-values.js';
import { pageVisibleArea } from '../vector/redact.js';
import type { SourceLink } from './read.js';
import { fold, MIN_OBJECT_NEEDLE } from '../../release-check/index.js';

// Links of the source that the release keeps: viewers (poppler, Acrobat) draw a link's border, so a release that
// dropped every annotation would differ from its source outside any box. A link is kept only when its rectangle
// (and quads) touch no drawn black: its URI or target could tell what lies under a box. A jump to a page goes
// only to a page the release shows. Each kept link is made anew from plain values (read.ts), so nothing else
// of the source annotation travels; a link whose URI repeats text withheld anywhere in its document is dropped; sanitize.ts lets through links of exactly this shape and nothing else.

export { readLinks, type SourceLink } from './read.js';

const LINK_KEYS = new Set(['Type', 'Subtype', 'Rect', 'P', 'F', 'Border', 'C', 'H', 'BS', 'QuadPoints', 'A', 'Dest']);
const BORDER_STYLE_KEYS = new Set(['Type', 'W', 'S', 'D']);

/** Everything a link may draw: its rectangle grown by its border, and each quad's bounds. */
function linkAreas(link: SourceLink): Rect[] {
  const width = Math.max(1, typeof link.border?.[2] === 'number' ? link.border[2] : 0, link.borderStyle?.width ?? 0);
  const [x1, y1, x2, y2] = link.rect;
  const areas: Rect[] = [{ x1: x1 - width, y1: y1 - width, x2: x2 + width, y2: y2 + width }];
  const quads = link.quadPoints ?? [];
  for (let index = 0; index + 8 <= quads.length; index += 8) {
    const xs = [0, 2, 4, 6].map((offset) => quads[index + offset] as number);
    const ys = [1, 3, 5, 7].map((offset) => quads[index + offset] as number);
    areas.push({ x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) });
  }
  return areas;
}

/** Whether a link may be released on a page whose black is `drawn` and whose visible area is `visible`. */
export function linkKept(link: SourceLink, drawn: readonly Rect[], visible: Rect): boolean {
  const [x1, y1, x2, y2] = link.rect;
  // Wholly on the visible page: a stamp margin must not show a link that lay outside it.
  if (x1 < visible.x1 || y1 < visible.y1 || x2 > visible.x2 || y2 > visible.y2) return false;
  return !linkAreas(link).some((area) => drawn.some((black) => overlaps(area, black)));
}

function hex(value: string): PDFHexString {
  return PDFHexString.of(Buffer.from(value, 'latin1').toString('hex'));
}

/**
 * Adds to `page` (of the output) the links of its source page that touch none of `drawn`; a jump goes to the
 * output page `pageOf` gives for its source page, and is left out when that page is not released.
 * Returns how many were kept.
 */
export function addLinks(page: PDFPage, links: readonly SourceLink[], drawn: readonly Rect[], pageOf: (sourcePage: number) => PDFRef | null, withheld: readonly string[] = []): { kept: number; dropped: number } {
  const context = page.doc.context;
  const visible = pageVisibleArea(page);
  let kept = 0;
  let dropped = 0;
  for (const link of links) {
    if (!linkKept(link, drawn, visible)) continue;
    // A URI that repeats text withheld anywhere in the document would tell it: the link is dropped, and counted.
    if (link.target && 'uri' in link.target && carriesWithheld(link.target.uri, withheld)) {
      dropped += 1;
      continue;
    }
    const entries: Record<string, PDFObject> = {
      Type: PDFName.of('Annot'),
      Subtype: PDFName.of('Link'),
      Rect: context.obj(link.rect),
      P: page.ref,
    };
    if (link.target && 'uri' in link.target) {
      entries.A = context.obj({ S: PDFName.of('URI'), URI: hex(link.target.uri) });
    } else if (link.target) {
      const target = pageOf(link.target.page);
      if (!target) continue;
      const [view, ...parameters] = link.target.view;
      entries.Dest = context.obj([target, PDFName.of(String(view)), ...parameters.map((value) => (typeof value === 'number' ? context.obj(value) : null))]);
    }
    if (link.flags !== 0) entries.F = context.obj(link.flags);
    if (link.border) entries.Border = context.obj(link.border);
    if (link.color) entries.C = context.obj(link.color);
    if (link.highlight) entries.H = PDFName.of(link.highlight);
    if (link.borderStyle) {
      const style: Record<string, PDFObject> = {};
      if (link.borderStyle.width !== null) style.W = context.obj(link.borderStyle.width);
      if (link.borderStyle.style) style.S = PDFName.of(link.borderStyle.style);
      if (link.borderStyle.dash) style.D = context.obj(link.borderStyle.dash);
      entries.BS = context.obj(style);
    }
    if (link.quadPoints) entries.QuadPoints = context.obj(link.quadPoints);
    page.node.addAnnot(context.register(context.obj(entries)));
    kept += 1;
  }
  return { kept, dropped };
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text.replace(/%([0-9a-f]{2})/giu, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
}

/** Whether a URI, as written or percent-decoded, folded, holds any of the (folded) withheld texts. */
export function carriesWithheld(uri: string, withheld: readonly string[]): boolean {
  const forms = [fold(uri), fold(percentDecoded(uri))];
  return withheld.some((text) => text.length >= MIN_OBJECT_NEEDLE && forms.some((form) => form.includes(text)));
}

/**
 * Whether an annotation of the output is a link as addLinks makes them (only those keys, a URI action or an
 * explicit destination on one of `pages`); returns its URI action dictionary (or null) when so, false when not.
 */
export function releasedLink(context: PDFContext, object: PDFObject | undefined, pages: ReadonlySet<PDFRef>): PDFDict | null | false {
  const link = resolved(context, object);
  if (!(link instanceof PDFDict)) return false;
  if (link.get(PDFName.of('Type')) !== PDFName.of('Annot') || link.get(PDFName.of('Subtype')) !== PDFName.of('Link')) return false;
  if (link.keys().some((key) => !LINK_KEYS.has(key.decodeText()))) return false;
  const owner = link.get(PDFName.of('P'));
  if (owner !== undefined && !(owner instanceof PDFRef && pages.has(owner))) return false;
  const style = resolved(context, link.get(PDFName.of('BS')));
  if (style !== undefined && (!(style instanceof PDFDict) || style.keys().some((key) => !BORDER_STYLE_KEYS.has(key.decodeText())))) return false;
  const dest = link.get(PDFName.of('Dest'));
  if (dest !== undefined) {
    const first = dest instanceof PDFArray ? dest.get(0) : undefined;
    if (!(first instanceof PDFRef && pages.has(first))) return false;
    if ((dest as PDFArray).asArray().slice(1).some((item) => item instanceof PDFDict || item instanceof PDFArray || item instanceof PDFRef)) return false;
  }
  const action = resolved(context, link.get(PDFName.of('A')));
  if (action === undefined) return null;
  if (!(action instanceof PDFDict) || action.get(PDFName.of('S')) !== PDFName.of('URI')) return false;
  if (action.keys().some((key) => !['S', 'URI', 'Type'].includes(key.decodeText()))) return false;
  const uri = action.get(PDFName.of('URI'));
  return uri instanceof PDFHexString || uri instanceof PDFString ? action : false;
}
