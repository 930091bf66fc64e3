import { appearanceContent, appearanceDraws } from './annotations.js';
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFContext, type PDFDocument, type PDFObject } from 'pdf-lib';

// Pages without redactions are copied as they are, but only what draws them travels: the page dictionary is
// cut down to its drawing entries, and its resources to the names its content uses. A resource dictionary
// shared by all pages would otherwise carry the images and forms of redacted pages into the output.

/** Page entries that draw the page; everything else (annotations, actions, metadata, thumbnails…) stays behind. */
const PAGE_KEYS = ['Type', 'MediaBox', 'CropBox', 'Rotate', 'Resources', 'Contents', 'UserUnit', 'Group'];
const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'];
const RESOURCE_KINDS = ['Font', 'XObject', 'ExtGState', 'ColorSpace', 'Pattern', 'Shading', 'Properties'];

export class CannotCopyPage extends Error {}

function resolve(context: PDFContext, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? context.lookup(object) : object;
}

function streamBytes(context: PDFContext, object: PDFObject | undefined): Uint8Array[] {
  const value = resolve(context, object);
  if (value instanceof PDFArray) return value.asArray().flatMap((item) => streamBytes(context, item));
  if (value instanceof PDFRawStream) {
    try {
      return [decodePDFRawStream(value).decode()];
    } catch (error) {
      throw new CannotCopyPage(`a content stream cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (value === undefined) return [];
  throw new CannotCopyPage('the page content is not a stream');
}

/** Every /Name in the content (over-inclusion only keeps a resource that is not needed). */
function namesIn(contents: readonly Uint8Array[]): Set<string> {
  const names = new Set<string>();
  for (const bytes of contents) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    for (const match of text.matchAll(/\/([^\s/[\]<>(){}%]+)/g)) {
      names.add((match[1] ?? '').replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    }
  }
  return names;
}

/**
 * A new resource dictionary with only the entries `contents` names. Forms and tiling patterns get their own
 * resources pruned the same way; a form without resources uses its parent's, so its names count here.
 */
function prune(context: PDFContext, resources: PDFDict, contents: Uint8Array[], visited: Set<PDFObject>): PDFDict {
  const names = namesIn(contents);
  const kept = context.obj({}) as PDFDict;
  const procSet = resources.get(PDFName.of('ProcSet'));
  if (procSet) kept.set(PDFName.of('ProcSet'), procSet);
  const pending: PDFRawStream[] = [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const kind of RESOURCE_KINDS) {
      const all = resolve(context, resources.get(PDFName.of(kind)));
      if (!(all instanceof PDFDict)) continue;
      const subset = (kept.get(PDFName.of(kind)) as PDFDict | undefined) ?? (context.obj({}) as PDFDict);
      for (const [key, value] of all.entries()) {
        if (!names.has(key.decodeText()) || subset.has(key)) continue;
        subset.set(key, value);
        const target = resolve(context, value);
        if (target instanceof PDFRawStream && !visited.has(target) && (kind === 'XObject' || kind === 'Pattern')) {
          visited.add(target);
          const subtype = target.dict.get(PDFName.of('Subtype'));
          const isForm = kind === 'XObject' ? subtype === PDFName.of('Form') : target.dict.get(PDFName.of('PatternType'))?.toString() === '1';
          if (!isForm) continue;
          const own = resolve(context, target.dict.get(PDFName.of('Resources')));
          if (own instanceof PDFDict) pending.push(target);
          else {
            for (const name of namesIn(streamBytes(context, target))) {
              if (!names.has(name)) {
                names.add(name);
                grew = true;
              }
            }
          }
        }
      }
      if (subset.keys().length > 0) kept.set(PDFName.of(kind), subset);
    }
  }
  for (const form of pending) {
    const own = resolve(context, form.dict.get(PDFName.of('Resources'))) as PDFDict;
    form.dict.set(PDFName.of('Resources'), prune(context, own, streamBytes(context, form), visited));
  }
  return kept;
}

/**
 * Cuts a page of the (never saved) source document down to what draws it, in place, so copyPages takes
 * nothing else along. `contents` (a stream of the source's context) replaces the page's own content, and the
 * resources are cut to what it uses. Throws CannotCopyPage when the content cannot be read; the page is then
 * rendered. Returns the number of annotation appearances the page content now draws (flattened).
 */
export function prepareCopy(source: PDFDocument, pageIndex: number, contents?: PDFRef): number {
  const page = source.getPage(pageIndex).node;
  const context = source.context;
  for (const key of INHERITED) {
    const name = PDFName.of(key);
    if (!page.has(name)) {
      const inherited = page.getInheritableAttribute(name);
      if (inherited) page.set(name, inherited);
    }
  }
  const found = resolve(context, page.get(PDFName.of('Resources')));
  let resources = found instanceof PDFDict ? found : (context.obj({}) as PDFDict);
  // Annotations that show something are drawn by the page content (flattened), the same names every time.
  const existing = resolve(context, resources.get(PDFName.of('XObject')));
  const form = resolve(context, source.catalog.get(PDFName.of('AcroForm')));
  const needAppearances = form instanceof PDFDict && resolve(context, form.get(PDFName.of('NeedAppearances')))?.toString() === 'true';
  const draws = appearanceDraws(context, page, (name) => existing instanceof PDFDict && existing.has(PDFName.of(name)), needAppearances);
  if (typeof draws === 'string') throw new CannotCopyPage(`the page shows annotations that cannot be flattened: ${draws}`);
  if (draws.length > 0) {
    resources = resources.clone(context);
    const xobjects = existing instanceof PDFDict ? existing.clone(context) : (context.obj({}) as PDFDict);
    for (const draw of draws) xobjects.set(PDFName.of(draw.name), draw.ref);
    resources.set(PDFName.of('XObject'), xobjects);
    if (!contents) {
      // A rewritten content already draws them; the page's own is closed in q … Q before they are drawn.
      const own = resolve(context, page.get(PDFName.of('Contents')));
      const parts = own instanceof PDFArray ? own.asArray() : own ? [page.get(PDFName.of('Contents')) as PDFObject] : [];
      const open = context.register(context.stream('q\n'));
      const close = context.register(context.flateStream(`\nQ\n${appearanceContent(draws)}\n`));
      page.set(PDFName.of('Contents'), context.obj([open, ...parts, close]));
    }
  }
  if (contents) page.set(PDFName.of('Contents'), contents);
  const content = streamBytes(context, page.get(PDFName.of('Contents')));
  page.set(PDFName.of('Resources'), prune(context, resources, content, new Set()));
  for (const key of page.keys()) {
    if (key !== PDFName.of('Parent') && !PAGE_KEYS.includes(key.decodeText())) page.delete(key);
  }
  return draws.length;
}
