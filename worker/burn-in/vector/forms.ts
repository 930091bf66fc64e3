import { deflateSync } from 'node:zlib';
import { PDFDict, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFDocument } from 'pdf-lib';
import { dictAt } from './pdf-values.js';

// Text inside a form XObject is redacted in a copy of the form made for the one page: the page's content then
// draws the copy under a new name, and pages that share the original keep it as it was.

export interface FormCopy {
  /** The XObject name the rewritten page content draws it by. */
  name: string;
  /** The original form (same object number in every load of the same file). */
  ref: PDFRef;
  /** The copy's new content, uncompressed. */
  content: Uint8Array;
}

/** An XObject name that `resources` does not use and no other copy took. */
export function freeXObjectName(xobjects: PDFDict | undefined, taken: ReadonlySet<string>, prefix = 'ObscuraForm'): string {
  let name = `${prefix}1`;
  for (let suffix = 2; xobjects?.has(PDFName.of(name)) || taken.has(name); suffix += 1) name = `${prefix}${suffix}`;
  return name;
}

/**
 * Adds the form copies to page `pageIndex` under their names, in a resource dictionary of the page's own (the
 * original may be shared). Each copy keeps the original's dictionary (BBox, Matrix, Resources, Group).
 */
export function addFormCopies(doc: PDFDocument, pageIndex: number, copies: readonly { name: string; ref: PDFRef; deflated: Uint8Array }[]): void {
  if (copies.length === 0) return;
  const context = doc.context;
  editPageXObjects(doc, pageIndex, (xobjects) => {
    for (const copy of copies) {
      const original = context.lookup(copy.ref);
      if (!(original instanceof PDFStream)) throw new Error(`the form ${copy.ref.toString()} is not a stream`);
      const dict = original.dict.clone(context);
      dict.delete(PDFName.of('DecodeParms'));
      dict.delete(PDFName.of('Length'));
      dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
      xobjects.set(PDFName.of(copy.name), context.register(PDFRawStream.of(dict, copy.deflated)));
    }
  });
}

/**
 * Lets `edit` change the XObject dictionary of page `pageIndex` in resources of the page's own: the page's
 * resource and XObject dictionaries are copied first, as other pages may share them.
 */
export function editPageXObjects(doc: PDFDocument, pageIndex: number, edit: (xobjects: PDFDict) => void): void {
  const context = doc.context;
  const node = doc.getPage(pageIndex).node;
  const resources = node.Resources()?.clone(context) ?? (context.obj({}) as PDFDict);
  const xobjects = dictAt(context, resources, 'XObject')?.clone(context) ?? (context.obj({}) as PDFDict);
  edit(xobjects);
  resources.set(PDFName.of('XObject'), xobjects);
  node.set(PDFName.of('Resources'), resources);
}

export function deflated(content: Uint8Array): Uint8Array {
  return deflateSync(content);
}
