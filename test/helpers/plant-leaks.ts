import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFPage,
  PDFRef,
  PDFString,
  type PDFObject,
} from 'pdf-lib';

// Mutations of a correct release for the verifier's mutation suite (issue 25): each plants a withheld string in
// one place a PDF can carry text, with pdf-lib, leaving the rest of the file as it was. The planted file is
// otherwise sound (qpdf --check passes); what it holds is what an adversary's reader would find.

/** A string's bytes as UTF-16BE with its byte-order mark, as PDF text strings carry non-Latin text. */
export function utf16(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
}

/** A literal string token of exactly these bytes, e.g. UTF-16BE with BOM (pdf-lib escapes what needs it). */
export function literalOf(bytes: Buffer): PDFString {
  return PDFString.of([...bytes].map((byte) => String.fromCharCode(byte)).join('').replace(/[\\()]/g, '\\$&'));
}

/** A hex string token of exactly these bytes. */
export function hexOf(bytes: Buffer): PDFHexString {
  return PDFHexString.of(bytes.toString('hex'));
}

/** Full-width Latin letters (U+FF21…): the same text after NFKC. */
export function fullWidth(text: string): string {
  return [...text].map((char) => (/[!-~]/.test(char) ? String.fromCodePoint((char.codePointAt(0) as number) + 0xfee0) : char)).join('');
}

/** Loads `bytes`, applies `plant`, saves (object streams as `objectStreams` says: both forms must be searched). */
export async function mutate(bytes: Uint8Array, plant: (doc: PDFDocument) => void | Promise<void>, objectStreams = false): Promise<Buffer> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  await plant(doc);
  return Buffer.from(await doc.save({ useObjectStreams: objectStreams, updateFieldAppearances: false }));
}

function pageOf(doc: PDFDocument, page: number): PDFPage {
  return doc.getPage(page - 1);
}

/** Appends a Flate content stream to a page (after its own: drawn on top), with a Helvetica font as /FPlant. */
export function appendContent(doc: PDFDocument, page: number, content: string): void {
  const target = pageOf(doc, page);
  const font = doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
  target.node.setFontDictionary(PDFName.of('FPlant'), font);
  const stream = doc.context.register(doc.context.flateStream(content));
  target.node.addContentStream(stream);
}

/** A text-showing operand: a literal or hex string token of a Latin-1 string. */
export function showOperand(text: string, form: 'literal' | 'hex' = 'literal'): string {
  return form === 'hex' ? `<${Buffer.from(text, 'latin1').toString('hex')}>` : `(${text.replace(/[\\()]/g, '\\$&')})`;
}

/** Text drawn on a page in Helvetica at (x, y), visible (render mode 0) or invisible (3), optionally wrapped in a marked-content span. */
export function drawText(doc: PDFDocument, page: number, text: string, options: { x?: number; y?: number; mode?: 0 | 3; form?: 'literal' | 'hex'; span?: string } = {}): void {
  const show = `BT /FPlant 10 Tf ${options.mode ?? 0} Tr 1 0 0 1 ${options.x ?? 72} ${options.y ?? 100} Tm ${showOperand(text, options.form)} Tj ET`;
  appendContent(doc, page, options.span ? `${options.span} BDC\n${show}\nEMC` : show);
}

/** Adds an annotation dictionary to a page's /Annots; returns its reference. */
export function addAnnotation(doc: PDFDocument, page: number, entries: Record<string, PDFObject | string | number | unknown>): PDFRef {
  const ref = doc.context.register(doc.context.obj({ Type: 'Annot', ...entries } as never));
  const target = pageOf(doc, page);
  const annots = target.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) annots.push(ref);
  else target.node.set(PDFName.of('Annots'), doc.context.obj([ref]));
  return ref;
}

/** A link annotation at a corner of the page with a URI action. */
export function plantUri(doc: PDFDocument, page: number, uri: string): void {
  addAnnotation(doc, page, { Subtype: 'Link', Rect: [20, 20, 60, 30], Border: [0, 0, 0], A: { S: 'URI', URI: PDFString.of(uri) } });
}

/** A link annotation whose action is a GoToR/Launch to a file named with the text (a destination, not a URI). */
export function plantFileLink(doc: PDFDocument, page: number, file: string): void {
  addAnnotation(doc, page, { Subtype: 'Link', Rect: [20, 40, 60, 50], Border: [0, 0, 0], A: { S: 'GoToR', F: PDFString.of(file), D: [0, PDFName.of('Fit')] } });
}

/** A text annotation (a sticky note) whose /Contents is the string. */
export function plantContents(doc: PDFDocument, page: number, value: PDFString | PDFHexString): void {
  addAnnotation(doc, page, { Subtype: 'Text', Rect: [20, 60, 40, 80], Contents: value });
}

/** A filled text field (widget on the page) with name /T and value /V, listed in the catalog's /AcroForm. */
export function plantField(doc: PDFDocument, page: number, name: PDFString | PDFHexString, value: PDFString | PDFHexString): void {
  const widget = addAnnotation(doc, page, { Subtype: 'Widget', FT: 'Tx', Rect: [72, 40, 272, 56], T: name, V: value, F: 4, P: pageOf(doc, page).ref });
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [widget], DA: PDFString.of('/Helv 10 Tf 0 g') }));
}

/** A structure element (a figure) with the given entries (/Alt, /ActualText…), reachable from the catalog's /StructTreeRoot. */
export function plantStructureElement(doc: PDFDocument, page: number, entries: Record<string, PDFString | PDFHexString>): void {
  const root = doc.context.register(doc.context.obj({ Type: 'StructTreeRoot' }));
  const element = doc.context.register(doc.context.obj({ Type: 'StructElem', S: 'Figure', P: root, Pg: pageOf(doc, page).ref, ...entries }));
  (doc.context.lookup(root, PDFDict) as PDFDict).set(PDFName.of('K'), element);
  doc.catalog.set(PDFName.of('StructTreeRoot'), root);
}

/** A structure element with /Alt. */
export function plantAltStructure(doc: PDFDocument, page: number, alt: PDFString | PDFHexString): void {
  plantStructureElement(doc, page, { Alt: alt });
}

/** A name object: a page resource (an extended graphics state) called by the content. */
export function plantName(doc: PDFDocument, page: number, name: string): void {
  const target = pageOf(doc, page);
  const resources = target.node.Resources() ?? doc.context.obj({});
  const states = resources.lookupMaybe(PDFName.of('ExtGState'), PDFDict) ?? doc.context.obj({});
  states.set(PDFName.of(name), doc.context.obj({ Type: 'ExtGState', CA: 1 }));
  resources.set(PDFName.of('ExtGState'), states);
  target.node.set(PDFName.of('Resources'), resources);
  appendContent(doc, page, `${PDFName.of(name).asString()} gs`);
}

/** A font named after the text (/BaseFont ABCDEF+Text), in the page's resources and used by a blank text. */
export function plantFontName(doc: PDFDocument, page: number, baseFont: string): void {
  const font = doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: PDFName.of(baseFont), Encoding: 'WinAnsiEncoding' }));
  pageOf(doc, page).node.setFontDictionary(PDFName.of('FName'), font);
  appendContent(doc, page, 'BT /FName 10 Tf 1 0 0 1 72 90 Tm ( ) Tj ET');
}

/** The document information dictionary with a title. */
export function plantInfoTitle(doc: PDFDocument, title: PDFString | PDFHexString): void {
  const info = doc.context.register(doc.context.obj({ Title: title, Producer: PDFString.of('pdf-lib') }));
  doc.context.trailerInfo.Info = info;
}

/** An XMP packet (dc:title) as the catalog's /Metadata stream, uncompressed or Flate. */
export function plantXmp(doc: PDFDocument, title: string, flate = false): void {
  const xmp =
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title></rdf:Description>` +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>';
  const bytes = Buffer.from(xmp, 'utf8');
  const stream = flate ? doc.context.flateStream(bytes, { Type: 'Metadata', Subtype: 'XML' }) : doc.context.stream(bytes, { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

/** An outline (bookmarks) with one item titled with the string, pointing at the page. */
export function plantOutline(doc: PDFDocument, page: number, title: PDFString | PDFHexString): void {
  const outlines = doc.context.register(doc.context.obj({ Type: 'Outlines', Count: 1 }));
  const item = doc.context.register(doc.context.obj({ Title: title, Parent: outlines, Dest: [pageOf(doc, page).ref, PDFName.of('Fit')] }));
  const dict = doc.context.lookup(outlines, PDFDict) as PDFDict;
  dict.set(PDFName.of('First'), item);
  dict.set(PDFName.of('Last'), item);
  doc.catalog.set(PDFName.of('Outlines'), outlines);
}

/** A new indirect object, referenced from nowhere, holding a string. */
export function plantOrphanString(doc: PDFDocument, value: PDFString | PDFHexString): void {
  doc.context.register(doc.context.obj({ Note: value }));
}

/** A new Flate stream, referenced from nowhere, whose data holds the text. */
export function plantOrphanStream(doc: PDFDocument, text: string): void {
  doc.context.register(doc.context.flateStream(Buffer.from(`% internal\n${text}\n`, 'utf8')));
}

/**
 * Appends an incremental update (a second revision, classic xref table) that redefines object `number` as
 * `body`: readers use the new definition, the old one stays in the file's bytes. `bytes` must end in a classic
 * xref table (pdf-lib's save without object streams).
 */
export function appendRevision(bytes: Buffer, number: number, body: string): Buffer {
  const text = bytes.toString('latin1');
  const previous = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  const trailer = text.slice(text.lastIndexOf('trailer'));
  const size = Number(/\/Size (\d+)/.exec(trailer)?.[1]);
  const root = /\/Root (\d+ \d+ R)/.exec(trailer)?.[1];
  if (!Number.isFinite(previous) || !Number.isFinite(size) || !root) throw new Error('no classic trailer to update');
  const head = bytes.at(-1) === 0x0a ? '' : '\n';
  const offset = bytes.length + head.length;
  const object = `${number} 0 obj\n${body}\nendobj\n`;
  const xref = offset + object.length;
  const update = `${head}${object}xref\n0 1\n0000000000 65535 f \n${number} 1\n${String(offset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size} /Root ${root} /Prev ${previous} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([bytes, Buffer.from(update, 'latin1')]);
}
