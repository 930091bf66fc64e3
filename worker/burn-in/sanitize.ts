import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFContext, type PDFObject } from 'pdf-lib';
import { releasedLink } from './links/index.js';
import { isPrivateKey, metadataProblems, stripImageMetadata } from './metadata/index.js';

// What an output PDF may hold: a catalog with its page tree and the objects that draw the pages. Nothing that
// could carry content besides the pages: no document information or XMP, no annotations or actions, no
// JavaScript, forms, attachments, outlines, structure tree or optional-content configuration. The one exception:
// links as links/ makes them (a URI or a jump to a released page, nothing else), in a page's /Annots.

const FORBIDDEN_KEYS = [
  'Metadata',
  'PieceInfo',
  'LastModified',
  'AA',
  'OpenAction',
  'AcroForm',
  'Names',
  'Outlines',
  'JavaScript',
  'JS',
  'EmbeddedFiles',
  'EmbeddedFile',
  'AF',
  'Annots',
  'StructTreeRoot',
  'StructParents',
  'StructParent',
  'MarkInfo',
  'OCProperties',
  'Threads',
  'Dests',
  'URI',
  'Perms',
  'Collection',
  'SpiderInfo',
  'Legal',
  'Thumb',
];
const CATALOG_KEYS = ['Type', 'Pages'];

/** Every object reachable from `start`, calling `visit` on each dictionary (stream dictionaries included). */
function walk(context: PDFContext, start: PDFObject, visit: (dict: PDFDict) => void): Set<PDFRef> {
  const reached = new Set<PDFRef>();
  const seen = new Set<PDFObject>();
  const stack: PDFObject[] = [start];
  while (stack.length > 0) {
    let object = stack.pop() as PDFObject;
    if (object instanceof PDFRef) {
      if (reached.has(object)) continue;
      reached.add(object);
      const target = context.lookup(object);
      if (!target) continue;
      object = target;
    }
    if (seen.has(object)) continue;
    seen.add(object);
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : null;
    if (dict) {
      visit(dict);
      for (const [, value] of dict.entries()) stack.push(value);
    } else if (object instanceof PDFArray) {
      for (const item of object.asArray()) stack.push(item);
    }
  }
  return reached;
}

function catalogRef(context: PDFContext): PDFRef {
  const root = context.trailerInfo.Root;
  if (!(root instanceof PDFRef)) throw new Error('the output has no catalog');
  return root;
}

/** The page dictionaries of the page tree, by reference. */
function pageRefs(context: PDFContext, catalog: PDFDict): Map<PDFRef, PDFDict> {
  const pages = new Map<PDFRef, PDFDict>();
  const stack: PDFObject[] = [catalog.get(PDFName.of('Pages')) as PDFObject];
  const seen = new Set<PDFObject>();
  while (stack.length > 0) {
    const ref = stack.pop() as PDFObject;
    const node = ref instanceof PDFRef ? context.lookup(ref) : ref;
    if (!(node instanceof PDFDict) || seen.has(node)) continue;
    seen.add(node);
    const kids = node.get(PDFName.of('Kids'));
    const list = kids instanceof PDFRef ? context.lookup(kids) : kids;
    if (list instanceof PDFArray) stack.push(...list.asArray());
    else if (ref instanceof PDFRef) pages.set(ref, node);
  }
  return pages;
}

/**
 * The dictionaries that may hold /Annots (pages whose every annotation is a released link) and /URI (those
 * links' actions); `prune` removes every other annotation from the pages first.
 */
function releasedLinks(context: PDFContext, catalog: PDFDict, prune: boolean): { pages: Set<PDFDict>; actions: Set<PDFDict> } {
  const all = pageRefs(context, catalog);
  const refs = new Set(all.keys());
  const pages = new Set<PDFDict>();
  const actions = new Set<PDFDict>();
  for (const page of all.values()) {
    const annots = page.get(PDFName.of('Annots'));
    const list = annots instanceof PDFRef ? context.lookup(annots) : annots;
    if (!(list instanceof PDFArray)) continue;
    const kept = list.asArray().filter((entry) => {
      const link = releasedLink(context, entry, refs);
      if (link) actions.add(link);
      return link !== false;
    });
    if (kept.length === 0) continue;
    if (kept.length === list.size()) pages.add(page);
    else if (prune) {
      page.set(PDFName.of('Annots'), context.obj(kept));
      pages.add(page);
    }
  }
  return { pages, actions };
}

/** Strips every forbidden entry, drops the Info dictionary and deletes objects no page reaches. */
export function sanitizeOutput(context: PDFContext): void {
  const root = catalogRef(context);
  const catalog = context.lookup(root, PDFDict);
  for (const key of catalog.keys()) if (!CATALOG_KEYS.includes(key.decodeText())) catalog.delete(key);
  context.trailerInfo.Info = undefined;
  const forbidden = FORBIDDEN_KEYS.map((key) => PDFName.of(key));
  const links = releasedLinks(context, catalog, true);
  const annots = PDFName.of('Annots');
  const uri = PDFName.of('URI');
  const reached = walk(context, root, (dict) => {
    for (const key of forbidden) {
      if ((key === annots && links.pages.has(dict)) || (key === uri && links.actions.has(dict))) continue;
      dict.delete(key);
    }
    for (const key of dict.keys()) if (isPrivateKey(key.decodeText())) dict.delete(key);
  });
  for (const [ref] of context.enumerateIndirectObjects()) if (!reached.has(ref)) context.delete(ref);
  stripImageMetadata(context, reached);
}

/** Problems with an output's structure (empty when clean): forbidden entries, extra catalog keys, Info, revisions. */
export function structureProblems(context: PDFContext, bytes: Uint8Array): string[] {
  const problems = new Set<string>();
  const root = catalogRef(context);
  const catalog = context.lookup(root, PDFDict);
  for (const key of catalog.keys()) if (!CATALOG_KEYS.includes(key.decodeText())) problems.add(`the catalog has /${key.decodeText()}`);
  if (context.trailerInfo.Info) problems.add('the trailer has a document information dictionary');
  if (context.trailerInfo.Encrypt) problems.add('the file is encrypted');
  const forbidden = new Set(FORBIDDEN_KEYS);
  const links = releasedLinks(context, catalog, false);
  const allowed = (dict: PDFDict, key: string) => (key === 'Annots' && links.pages.has(dict)) || (key === 'URI' && links.actions.has(dict));
  // Every object in the file, reachable or not: an orphan is still in the bytes.
  const check = (object: PDFObject): void => {
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : null;
    if (dict) {
      for (const [key, value] of dict.entries()) {
        if ((forbidden.has(key.decodeText()) && !allowed(dict, key.decodeText())) || isPrivateKey(key.decodeText())) problems.add(`an object has /${key.decodeText()}`);
        check(value);
      }
    } else if (object instanceof PDFArray) {
      for (const item of object.asArray()) check(item);
    }
  };
  for (const [, object] of context.enumerateIndirectObjects()) {
    check(object);
    for (const problem of metadataProblems(context, object)) problems.add(problem);
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const revisions = text.match(/%%EOF/g)?.length ?? 0;
  if (revisions !== 1) problems.add(`the file has ${revisions} end-of-file markers (one revision expected)`);
  return [...problems];
}
