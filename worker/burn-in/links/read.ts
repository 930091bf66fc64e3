import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNull, PDFNumber, PDFRef, PDFString, type PDFContext, type PDFDocument, type PDFObject } from 'pdf-lib';
import { resolved } from '../vector/pdf-values.js';

// The Link annotations of a source page, read into plain values before the page is cut down (copy.ts drops its
// /Annots): only what a link shows (its rectangle and border) and where it goes (a URI, or a page of the same
// document with its view). Everything else a link may carry (/PA, /StructParent, /Next actions, JavaScript,
// launch or remote actions) never leaves this module; a link whose action is anything else is left out.

export type LinkTarget = { uri: string } | { page: number; view: (string | number | null)[] } | null;

export interface SourceLink {
  rect: [number, number, number, number];
  quadPoints: number[] | null;
  border: (number | number[])[] | null;
  color: number[] | null;
  highlight: string | null;
  borderStyle: { width: number | null; style: string | null; dash: number[] | null } | null;
  flags: number;
  /** null: a link that goes nowhere (it still draws its border). */
  target: LinkTarget;
}

const HIDDEN = 2;
const NO_VIEW = 32;
const HIGHLIGHTS = new Set(['N', 'I', 'O', 'P']);
const BORDER_STYLES = new Set(['S', 'D', 'B', 'I', 'U']);
const VIEWS = new Set(['XYZ', 'Fit', 'FitH', 'FitV', 'FitR', 'FitB', 'FitBH', 'FitBV']);

function numbers(context: PDFContext, object: PDFObject | undefined, count?: number): number[] | null {
  const array = resolved(context, object);
  if (!(array instanceof PDFArray) || (count !== undefined && array.size() !== count)) return null;
  const values = array.asArray().map((item) => resolved(context, item));
  if (!values.every((value) => value instanceof PDFNumber)) return null;
  const result = values.map((value) => (value as PDFNumber).asNumber());
  return result.every(Number.isFinite) ? result : null;
}

function text(object: PDFObject | undefined): string | null {
  return object instanceof PDFString || object instanceof PDFHexString ? object.decodeText() : null;
}

/** A name of the document's destinations: the catalog's /Dests dictionary or its /Names /Dests name tree. */
function namedDestination(context: PDFContext, catalog: PDFDict, name: string): PDFObject | undefined {
  const dests = resolved(context, catalog.get(PDFName.of('Dests')));
  if (dests instanceof PDFDict) {
    const found = resolved(context, dests.get(PDFName.of(name)));
    if (found) return found;
  }
  const names = resolved(context, catalog.get(PDFName.of('Names')));
  let node = names instanceof PDFDict ? resolved(context, names.get(PDFName.of('Dests'))) : undefined;
  for (let depth = 0; node instanceof PDFDict && depth < 32; depth += 1) {
    const leaves = resolved(context, node.get(PDFName.of('Names')));
    if (leaves instanceof PDFArray) {
      const items = leaves.asArray();
      for (let index = 0; index + 1 < items.length; index += 2) if (text(resolved(context, items[index])) === name) return resolved(context, items[index + 1]);
      return undefined;
    }
    const kids = resolved(context, node.get(PDFName.of('Kids')));
    if (!(kids instanceof PDFArray)) return undefined;
    node = kids.asArray().map((kid) => resolved(context, kid)).find((kid) => {
      const limits = kid instanceof PDFDict ? resolved(context, kid.get(PDFName.of('Limits'))) : undefined;
      const [low, high] = limits instanceof PDFArray ? limits.asArray().map((item) => text(resolved(context, item))) : [];
      return low != null && high != null && low <= name && name <= high;
    });
  }
  return undefined;
}

/** An explicit destination [page view …] as a page number (1-based) and its view; null when not on a page of this file. */
function destination(context: PDFContext, catalog: PDFDict, pages: Map<PDFRef, number>, object: PDFObject | undefined): LinkTarget | undefined {
  let value = resolved(context, object);
  const name = value instanceof PDFName ? value.decodeText() : text(value);
  if (name !== null) value = namedDestination(context, catalog, name);
  if (value instanceof PDFDict) value = resolved(context, value.get(PDFName.of('D')));
  if (!(value instanceof PDFArray) || value.size() < 2) return undefined;
  const [pageRef, kind, ...rest] = value.asArray();
  const page = pageRef instanceof PDFRef ? pages.get(pageRef) : undefined;
  const view = resolved(context, kind);
  if (page === undefined || !(view instanceof PDFName) || !VIEWS.has(view.decodeText())) return undefined;
  const parameters: (number | null)[] = [];
  for (const item of rest) {
    const parameter = resolved(context, item);
    if (parameter instanceof PDFNumber && Number.isFinite(parameter.asNumber())) parameters.push(parameter.asNumber());
    else if (parameter === PDFNull || parameter === undefined) parameters.push(null);
    else return undefined;
  }
  return { page, view: [view.decodeText(), ...parameters] };
}

/** Where a link goes; undefined when it does something a release does not keep. */
function targetOf(context: PDFContext, catalog: PDFDict, pages: Map<PDFRef, number>, link: PDFDict): LinkTarget | undefined {
  const action = resolved(context, link.get(PDFName.of('A')));
  if (action === undefined) return link.has(PDFName.of('Dest')) ? destination(context, catalog, pages, link.get(PDFName.of('Dest'))) : null;
  if (!(action instanceof PDFDict)) return undefined;
  const kind = resolved(context, action.get(PDFName.of('S')));
  if (kind === PDFName.of('URI')) {
    const uri = resolved(context, action.get(PDFName.of('URI')));
    // The bytes as written (escapes undone): URIs are 7-bit ASCII, not text strings (ISO 32000-2, 12.6.4.8).
    const value = uri instanceof PDFString || uri instanceof PDFHexString ? Buffer.from(uri.asBytes()).toString('latin1') : null;
    return value !== null && value.length > 0 ? { uri: value } : undefined;
  }
  if (kind === PDFName.of('GoTo')) return destination(context, catalog, pages, action.get(PDFName.of('D')));
  return undefined;
}

/** The page's links a release can keep (before any box is considered), in their order on the page. */
export function readLinks(source: PDFDocument, pageIndex: number): SourceLink[] {
  const context = source.context;
  const annots = resolved(context, source.getPage(pageIndex).node.get(PDFName.of('Annots')));
  if (!(annots instanceof PDFArray)) return [];
  const pages = new Map(source.getPages().map((page, index) => [page.ref, index + 1]));
  const links: SourceLink[] = [];
  for (const entry of annots.asArray()) {
    const link = resolved(context, entry);
    if (!(link instanceof PDFDict) || resolved(context, link.get(PDFName.of('Subtype'))) !== PDFName.of('Link')) continue;
    const flagValue = resolved(context, link.get(PDFName.of('F')));
    const flags = flagValue instanceof PDFNumber ? flagValue.asNumber() & 0x3ff : 0;
    if ((flags & (HIDDEN | NO_VIEW)) !== 0) continue;
    const rect = numbers(context, link.get(PDFName.of('Rect')), 4);
    const target = targetOf(context, source.catalog, pages, link);
    if (!rect || target === undefined) continue;
    const quadPoints = numbers(context, link.get(PDFName.of('QuadPoints')));
    const borderArray = resolved(context, link.get(PDFName.of('Border')));
    let border: SourceLink['border'] = null;
    if (borderArray instanceof PDFArray && borderArray.size() >= 3) {
      const head = numbers(context, context.obj(borderArray.asArray().slice(0, 3)), 3);
      const dash = borderArray.size() > 3 ? numbers(context, borderArray.get(3)) : null;
      if (head) border = dash ? [...head, dash] : head;
    }
    const highlight = resolved(context, link.get(PDFName.of('H')));
    const style = resolved(context, link.get(PDFName.of('BS')));
    let borderStyle: SourceLink['borderStyle'] = null;
    if (style instanceof PDFDict) {
      const width = resolved(context, style.get(PDFName.of('W')));
      const kind = resolved(context, style.get(PDFName.of('S')));
      borderStyle = {
        width: width instanceof PDFNumber ? width.asNumber() : null,
        style: kind instanceof PDFName && BORDER_STYLES.has(kind.decodeText()) ? kind.decodeText() : null,
        dash: numbers(context, style.get(PDFName.of('D'))),
      };
    }
    links.push({
      rect: [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)],
      quadPoints: quadPoints && quadPoints.length % 8 === 0 && quadPoints.length > 0 ? quadPoints : null,
      border,
      color: numbers(context, link.get(PDFName.of('C'))),
      highlight: highlight instanceof PDFName && HIGHLIGHTS.has(highlight.decodeText()) ? highlight.decodeText() : null,
      borderStyle,
      flags,
      target,
    });
  }
  return links;
}
