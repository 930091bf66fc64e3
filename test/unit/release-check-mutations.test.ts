import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import type { BurnedPage, PageCheck } from '../../main/common/export-tasks.js';
import type { IndexRow } from '../../main/common/schemas/releases.js';
import { indexCsv } from '../../main/services/releases/index-csv.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { searchOutput, verify, VerificationFailed } from '../../worker/burn-in/verify.js';
import { coverLetterPdf, withholdingIndexPdf, type CoverLetter, type IndexPdfRow } from '../../worker/release-package/documents.js';
import { searchPdf, searchZip, withheldOfPage, type Leak, type PageToCheck, type PlaceKind } from '../../worker/release-check/index.js';
import { latex } from '../helpers/adversarial-pdfs.js';
import { bboxWords, boxOver, release, type BboxWord } from '../helpers/burn-producers.js';
import { pdftotext, qpdfCheck, qpdfExpanded, rawTexts } from '../helpers/pdf-tools.js';
import { tempDir } from '../helpers/temp.js';
import {
  addAnnotation,
  appendContent,
  appendRevision,
  drawText,
  fullWidth,
  hexOf,
  literalOf,
  mutate,
  plantAltStructure,
  plantContents,
  plantField,
  plantFontName,
  plantInfoTitle,
  plantName,
  plantOrphanStream,
  plantOrphanString,
  plantOutline,
  plantStructureElement,
  plantUri,
  plantXmp,
  utf16,
} from '../helpers/plant-leaks.js';

// The mutation suite of the release check (issue 25): a correct release of a pdfTeX document passes; the same
// release with the withheld name planted in one more place (with pdf-lib) fails, the check naming that place's
// kind (and page, where the place is a page's text), never the text. A verifier that cannot fail proves nothing.

const SECRET = 'Vashti';

let source: Buffer;
let clean: Buffer;
let pages: PageToCheck[];
let burnedPages: BurnedPage[];

/** The first word `word` on a page, by poppler. */
function wordOn(bytes: Buffer, page: number, word: string) {
  const found = bboxWords(bytes, page).find((entry) => entry.text === word);
  if (!found) throw new Error(`poppler finds no ${word} on page ${page}`);
  return found;
}

beforeAll(async () => {
  // Two pages, the name boxed on each; "Okafor" stays in view on page 2.
  source = latex(`The applicant ${SECRET} asked for the permit file.\n\nPublic records office, permit desk.\n\\newpage\nSecond page: ${SECRET} again, and Okafor.\n\nEnd of file.`);
  const released = await release(source, new Map([1, 2].map((page) => [page, [boxOver(wordOn(source, page, SECRET))]])));
  clean = released.bytes;
  burnedPages = released.pages;
  const document = await openPdf(new Uint8Array(source));
  try {
    pages = [];
    for (const burned of released.pages) {
      const drawn = (burned.drawnAreas ?? []).map(([x1, y1, x2, y2]) => ({ x1, y1, x2, y2 }));
      pages.push({ outputPage: burned.page, withheld: await withheldOfPage(document, burned.page, drawn) });
    }
  } finally {
    await document.destroy();
  }
}, 120_000);

/** Helvetica's advance widths of V, a, s, h, t, i at 10 pt. */
const HELVETICA_AT_10 = [6.67, 5.56, 5, 5.56, 2.78, 2.22];

const TEXT_PLACES = new Set<PlaceKind>(['page-text', 'glyph-text', 'text-layer']);

const search = async (bytes: Uint8Array): Promise<Leak[]> => (await searchPdf(bytes, pages)).leaks;

describe('the release check against planted leaks', () => {
  it('the correct release passes, and withholds the name on both pages with no allowance', async () => {
    expect(pages.map((page) => page.withheld)).toEqual([[{ text: SECRET.toLowerCase(), allowance: 0 }], [{ text: SECRET.toLowerCase(), allowance: 0 }]]);
    expect(await search(clean)).toEqual([]);
    // Re-saved by pdf-lib unchanged (the base of every mutation), it still passes.
    expect(await search(await mutate(clean, () => undefined))).toEqual([]);
    expect(await search(await mutate(clean, () => undefined, true))).toEqual([]);
  });

  interface Mutation {
    name: string;
    place: PlaceKind;
    /** The page the leak is named on: the output page for a page's text, null for a file's object. */
    page: number | null;
    plant: (doc: PDFDocument) => void;
    /** Object streams on save (strings then live compressed inside an object stream). */
    objectStreams?: boolean;
    /** An edit of the saved bytes (a second revision; a name spelled with #-escapes, same length). */
    after?: (bytes: Buffer) => Buffer;
    /** Why the release check misses it today (the test is then a todo, its planting kept for when it is fixed). */
    gap?: string;
    /** What an adversary's own tool shows of the planted file (the leak is really there). */
    seen?: (bytes: Buffer) => string;
    shows?: string;
  }

  const name = SECRET;
  const mutations: Mutation[] = [
    // A page's text that pdf.js's text content leaves out (an annotation's appearance) but the glyph reading has.
    {
      name: 'an annotation appearance stream (kerned TJ)',
      place: 'glyph-text',
      page: 1,
      plant: (doc) => {
        const appearance = doc.context.register(doc.context.flateStream('BT /FPlant 10 Tf 2 6 Td [(Vas) -20 (hti)] TJ ET', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 20], Resources: { Font: { FPlant: doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' })) } } }));
        addAnnotation(doc, 1, { Subtype: 'FreeText', Rect: [20, 20, 120, 40], AP: { N: appearance }, DA: PDFString.of('/Helv 10 Tf 0 g') });
      },
    },
    // The page's text, by both readings.
    { name: 'visible text on page 2', place: 'page-text', page: 2, plant: (doc) => drawText(doc, 2, name) },
    { name: 'visible text, hex-encoded operand', place: 'page-text', page: 1, plant: (doc) => drawText(doc, 1, name, { form: 'hex' }) },
    { name: 'visible text in another case', place: 'page-text', page: 1, plant: (doc) => drawText(doc, 1, name.toUpperCase()) },
    { name: 'visible text split by kerning (TJ)', place: 'page-text', page: 1, plant: (doc) => appendContent(doc, 1, 'BT /FPlant 10 Tf 1 0 0 1 72 100 Tm [(Vas) -20 (hti)] TJ ET') },
    { name: 'an invisible text layer word (render mode 3)', place: 'text-layer', page: 2, plant: (doc) => drawText(doc, 2, name, { mode: 3 }) },
    // Marked content.
    { name: 'ActualText of a span (literal)', place: 'actual-text', page: null, plant: (doc) => drawText(doc, 1, 'V.', { span: `/Span <</ActualText (${name})>>` }) },
    { name: 'ActualText of a span (UTF-16BE with BOM, hex)', place: 'actual-text', page: null, plant: (doc) => drawText(doc, 1, 'V.', { span: `/Span <</ActualText <${utf16(name).toString('hex')}>>>` }) },
    { name: '/Alt of a marked-content span', place: 'alt', page: null, plant: (doc) => drawText(doc, 1, 'V.', { span: `/Figure <</Alt (Photo of ${name})>>` }) },
    { name: 'ActualText of a structure element (UTF-16BE with BOM)', place: 'actual-text', page: null, plant: (doc) => plantStructureElement(doc, 1, { ActualText: PDFHexString.fromText(`${name} Okafor`) }) },
    { name: '/Alt of a structure element (full-width letters)', place: 'alt', page: null, plant: (doc) => plantAltStructure(doc, 1, hexOf(utf16(fullWidth(name)))) },
    // Annotations and forms.
    { name: 'a link URI', place: 'uri', page: null, plant: (doc) => plantUri(doc, 2, `https://example.org/records?name=${name}`) },
    { name: 'a link URI, percent-encoded', place: 'uri', page: null, plant: (doc) => plantUri(doc, 1, 'https://example.org/find?who=%56%61%73%68%74%69') },
    { name: 'a mailto: URI in another case', place: 'uri', page: null, plant: (doc) => plantUri(doc, 1, `mailto:${name.toUpperCase()}.okafor@example.org`) },
    { name: 'an annotation /Contents (UTF-16BE with BOM)', place: 'contents', page: null, plant: (doc) => plantContents(doc, 1, literalOf(utf16(`Ask ${name} first`))) },
    { name: 'an annotation /Contents (full-width letters)', place: 'contents', page: null, plant: (doc) => plantContents(doc, 2, PDFHexString.fromText(fullWidth(name))) },
    { name: 'a form field name (/T)', place: 'field-name', page: null, plant: (doc) => plantField(doc, 1, PDFString.of(`reviewer.${name}`), PDFString.of('approved')) },
    { name: 'a form field value (/V, hex)', place: 'field-value', page: null, plant: (doc) => plantField(doc, 1, PDFString.of('applicant'), hexOf(Buffer.from(`${name} Okafor`, 'latin1'))) },
    // Names and fonts.
    { name: 'a name object', place: 'name', page: null, plant: (doc) => plantName(doc, 1, name) },
    { name: 'a font /BaseFont', place: 'font-name', page: null, plant: (doc) => plantFontName(doc, 1, `ABCDEF+${name}-Regular`) },
    // Document-level places.
    { name: '/Info /Title (UTF-16BE with BOM)', place: 'metadata', page: null, plant: (doc) => plantInfoTitle(doc, PDFHexString.fromText(`Permit file of ${name} Okafor`)) },
    { name: 'XMP dc:title (uncompressed)', place: 'metadata', page: null, plant: (doc) => plantXmp(doc, `Permit file of ${name} Okafor`) },
    { name: 'XMP dc:title (Flate)', place: 'metadata', page: null, plant: (doc) => plantXmp(doc, `Permit file of ${name} Okafor`, true) },
    { name: 'an outline title', place: 'outline', page: null, plant: (doc) => plantOutline(doc, 2, PDFString.of(`Statement of ${name}`)) },
    // Anywhere else in the file.
    { name: 'a plain string in a new object', place: 'string', page: null, plant: (doc) => plantOrphanString(doc, PDFString.of(`note: ${name}`)) },
    { name: 'a hex string in a new object, inside an object stream', place: 'string', page: null, plant: (doc) => plantOrphanString(doc, hexOf(Buffer.from(name, 'latin1'))), objectStreams: true },
    { name: 'a string in another case in a new object', place: 'string', page: null, plant: (doc) => plantOrphanString(doc, PDFString.of(name.toLowerCase())) },
    { name: 'an annotation /Contents with a zero-width space inside the name', place: 'contents', page: null, plant: (doc) => plantContents(doc, 1, PDFHexString.fromText(`${name.slice(0, 3)}\u200b${name.slice(3)}`)) },
    {
      name: 'XMP dc:title with an XML character reference',
      place: 'metadata',
      page: null,
      plant: (doc) => plantXmp(doc, `Permit file of ${name.slice(0, 1)}&#x61;${name.slice(2)} Okafor`),
    },
    { name: 'a Flate stream', place: 'stream', page: null, plant: (doc) => plantOrphanStream(doc, `applicant=${name}`) },
    { name: 'a JavaScript action', place: 'string', page: null, plant: (doc) => doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of(`app.alert("${name}")`) })) },
    {
      name: 'a name spelled with #-escapes',
      place: 'name',
      page: null,
      plant: (doc) => void doc.context.register(doc.context.obj({ Type: 'Note', Label: PDFName.of(`${name}__`) })),
      after: (bytes) => Buffer.from(bytes.toString('latin1').replace(`/${name}__`, '/V#61shti'), 'latin1'),
    },
    // What an adversary's reader finds that a reading in content order, or of the newest revision only, does not.
    {
      name: 'letters drawn right to left (poppler reads them in place)',
      place: 'page-text',
      page: 1,
      plant: (doc) => appendContent(doc, 1, `BT /FPlant 10 Tf ${[...name].map((char, index) => `1 0 0 1 ${72 + HELVETICA_AT_10.slice(0, index).reduce((sum, width) => sum + width, 0)} 100 Tm (${char}) Tj`).reverse().join(' ')} ET`),
      seen: (bytes) => pdftotext(bytes, { page: 1 }),
      shows: name,
    },
    { name: 'a hex /Alt of a marked-content span', place: 'alt', page: null, plant: (doc) => drawText(doc, 1, 'V.', { span: `/Figure <</Alt <${utf16(name).toString('hex')}>>>` }) },
    { name: 'an octal-escaped string in a stream', place: 'stream', page: null, plant: (doc) => plantOrphanStream(doc, `BT /F1 10 Tf (\\126${name.slice(1)}) Tj ET`), seen: rawTexts, shows: `(\\126${name.slice(1)})` },
    {
      name: 'an unused form XObject of the page (kerned TJ)',
      place: 'stream',
      page: null,
      plant: (doc) => {
        const form = doc.context.register(doc.context.flateStream(`BT /F1 10 Tf [(${name.slice(0, 3)}) -20 (${name.slice(3)})] TJ ET`, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 20] }));
        const resources = doc.getPage(0).node.Resources();
        resources?.set(PDFName.of('XObject'), doc.context.obj({ Unused: form }));
      },
      seen: qpdfExpanded,
      shows: `[(${name.slice(0, 3)}) -20 (${name.slice(3)})] TJ`,
    },
    {
      name: 'an earlier revision of an object (an incremental update)',
      place: 'string',
      page: null,
      plant: (doc) => {
        revised = doc.context.register(doc.context.obj({ Note: PDFString.of(`note: ${name}`) })).objectNumber;
      },
      after: (bytes) => appendRevision(bytes, revised, '<< /Note (cleared) >>'),
      seen: (bytes) => bytes.toString('latin1'),
      shows: `(note: ${name})`,
    },
  ];
  let revised = 0;

  it.each(mutations.filter((mutation) => !mutation.gap))('$name: found as $place', async (mutation) => {
    let planted = await mutate(clean, mutation.plant, mutation.objectStreams ?? false);
    if (mutation.after) planted = mutation.after(planted);
    // The planted file is sound, and qpdf finds something new in it.
    qpdfCheck(planted);
    expect(qpdfExpanded(planted)).not.toBe(qpdfExpanded(clean));
    if (mutation.seen) expect(mutation.seen(planted)).toContain(mutation.shows);
    const leaks = await search(planted);
    expect(leaks, JSON.stringify(leaks)).toContainEqual(expect.objectContaining({ place: mutation.place }));
    const leak = leaks.find((entry) => entry.place === mutation.place) as Leak;
    // A page's text is named by its page; an object may be named by the page it hangs on, or by none.
    if (mutation.page !== null && TEXT_PLACES.has(mutation.place)) expect(leak.page).toBe(mutation.page);
    else expect([null, mutation.page]).toContain(leak.page);
  });

  it('every place kind of a PDF has a planted leak the check finds', () => {
    const places: Record<Exclude<PlaceKind, 'zip-entry'>, true> = {
      'page-text': true, 'glyph-text': true, 'text-layer': true, uri: true, 'actual-text': true, alt: true, 'field-name': true, 'field-value': true,
      contents: true, outline: true, metadata: true, 'font-name': true, name: true, string: true, stream: true,
    };
    const found = new Set(mutations.filter((mutation) => !mutation.gap).map((mutation) => mutation.place));
    expect([...found].sort()).toEqual(Object.keys(places).sort());
  });

  // Gaps of the release check today: each planted leak is really there (the planting and `seen` run in the
  // test above once the gap is closed), but the check does not report it as it should.
  for (const mutation of mutations.filter((entry) => entry.gap)) it.todo(`${mutation.name}: found as ${mutation.place} (gap: ${mutation.gap})`);

  // Of those, the ones the check fails under another place kind still fail the release.
  it.each(mutations.filter((mutation) => mutation.gap?.startsWith('reported as')))('$name: fails the release (under another place kind)', async (mutation) => {
    const leaks = await search(await mutate(clean, mutation.plant, mutation.objectStreams ?? false));
    expect(leaks.length).toBeGreaterThan(0);
  });
});

describe('allowances: a withheld text the source also shows in view', () => {
  let shown: Buffer;
  let check: PageToCheck[];

  beforeAll(async () => {
    // The name boxed in the first line and left in view in the second.
    const twice = latex(`The applicant ${SECRET} asked for the permit file.\n\nPublic records office: ${SECRET} Okafor called.`);
    const boxed = bboxWords(twice, 1).find((entry) => entry.text === SECRET) as BboxWord;
    const released = await release(twice, new Map([[1, [boxOver(boxed)]]]));
    shown = released.bytes;
    const document = await openPdf(new Uint8Array(twice));
    try {
      const drawn = (released.pages[0]?.drawnAreas ?? []).map(([x1, y1, x2, y2]) => ({ x1, y1, x2, y2 }));
      check = [{ outputPage: 1, withheld: await withheldOfPage(document, 1, drawn) }];
    } finally {
      await document.destroy();
    }
  }, 120_000);

  it('the release passes with the name once in view (allowance 1)', async () => {
    expect(check[0]?.withheld).toEqual([{ text: SECRET.toLowerCase(), allowance: 1 }]);
    expect((await searchPdf(shown, check)).leaks).toEqual([]);
  });

  it('one more copy in the page text fails it', async () => {
    const leaks = (await searchPdf(await mutate(shown, (doc) => drawText(doc, 1, SECRET, { mode: 3 })), check)).leaks;
    expect(leaks).toContainEqual({ page: 1, place: 'page-text' });
  });

  it('an object may repeat the name as often as the page text shows it, not more', async () => {
    expect((await searchPdf(await mutate(shown, (doc) => plantUri(doc, 1, `https://example.org/?q=${SECRET}`)), check)).leaks).toEqual([]);
    const twiceInUris = await mutate(shown, (doc) => plantUri(doc, 1, `https://example.org/?q=${SECRET}&again=${SECRET}`));
    expect((await searchPdf(twiceInUris, check)).leaks).toContainEqual({ page: null, place: 'uri' });
  });
});

// A release package: the released PDF, the withholding index (PDF and CSV), a cover letter and a manifest.

const ROWS: IndexRow[] = [{ reference: 'DOC-0001 p. 1', document: 'Permit file', exemptions: 'b6', category: 'Personal name', withheld: 'in part', count: 2, since_previous_release: 'new', justification: 'Personal privacy' }];
const LETTER: CoverLetter = { requestNumber: 'R-2026-0042', title: 'Permit file', date: '2026-11-28', releaseNumber: 1, documents: 1, pages: 2, withheldInFull: 0, batesRange: null, byExemption: [{ code: 'b6', name: 'Personal privacy', count: 2 }] };

interface Package {
  pdf: Buffer;
  pdfName?: string;
  rows?: IndexRow[];
  letter?: CoverLetter;
  manifest?: string;
  /** The index CSV's bytes as given, instead of indexCsv(rows). */
  csv?: Buffer;
}

async function releaseZip(parts: Package): Promise<Buffer> {
  const rows = parts.rows ?? ROWS;
  const zip = new yazl.ZipFile();
  const indexRows: IndexPdfRow[] = rows.map(({ justification: _justification, ...row }) => row);
  zip.addBuffer(parts.pdf, parts.pdfName ?? 'permit-file.pdf', { compress: false });
  zip.addBuffer(Buffer.from(await withholdingIndexPdf({ heading: 'Withholding index', rows: indexRows, cited: [{ code: 'b6', name: 'Personal privacy', justification: null }] })), 'withholding-index.pdf', { compress: false });
  zip.addBuffer(parts.csv ?? Buffer.from(indexCsv(rows), 'utf8'), 'withholding-index.csv');
  zip.addBuffer(Buffer.from(await coverLetterPdf(parts.letter ?? LETTER)), 'cover-letter.pdf', { compress: false });
  zip.addBuffer(Buffer.from(parts.manifest ?? `${JSON.stringify({ schema_version: 2, audience: 'release', files: [] }, null, 2)}\n`, 'utf8'), 'manifest.json');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('the release check of a package', () => {
  const withheld = () => new Map([[SECRET.toLowerCase(), 0]]);

  it('a correct package passes', async () => {
    expect(await searchZip(await releaseZip({ pdf: clean }), withheld())).toEqual([]);
  });

  const plants: { name: string; entry: string; place: PlaceKind; parts: () => Promise<Package> | Package; gap?: string }[] = [
    { name: 'the index CSV', entry: 'withholding-index.csv', place: 'zip-entry', parts: () => ({ pdf: clean, rows: [{ ...(ROWS[0] as IndexRow), justification: `Name of ${SECRET}'s relative` }] }) },
    { name: 'the index PDF', entry: 'withholding-index.pdf', place: 'page-text', parts: () => ({ pdf: clean, rows: [{ ...(ROWS[0] as IndexRow), category: `Name (${SECRET})` }] }) },
    { name: 'the cover letter', entry: 'cover-letter.pdf', place: 'page-text', parts: () => ({ pdf: clean, letter: { ...LETTER, title: `Permit file of ${SECRET} Okafor` } }) },
    { name: 'the manifest', entry: 'manifest.json', place: 'zip-entry', parts: () => ({ pdf: clean, manifest: `${JSON.stringify({ schema_version: 2, audience: 'release', documents: [{ title: `${SECRET} Okafor` }] }, null, 2)}\n` }) },
    { name: 'the manifest, full-width', entry: 'manifest.json', place: 'zip-entry', parts: () => ({ pdf: clean, manifest: `${JSON.stringify({ note: fullWidth(SECRET) })}\n` }) },
    { name: 'the released PDF (a URI)', entry: 'permit-file.pdf', place: 'uri', parts: async () => ({ pdf: await mutate(clean, (doc) => plantUri(doc, 1, `https://example.org/?q=${SECRET}`)) }) },
    { name: "the released PDF's file name (a document titled after the person)", entry: 'package entry 1 (its file name)', place: 'zip-entry', parts: () => ({ pdf: clean, pdfName: `${SECRET} Okafor permit.pdf` }) },
    { name: 'the manifest, JSON-escaped', entry: 'manifest.json', place: 'zip-entry', parts: () => ({ pdf: clean, manifest: `{"documents":[{"title":"V\\u0061shti Okafor"}]}\n` }) },
    { name: 'the index CSV in UTF-16 (a spreadsheet\'s "Unicode text")', entry: 'withholding-index.csv', place: 'zip-entry', parts: () => ({ pdf: clean, csv: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`page_reference,category\r\nDOC-0001 p. 1,${SECRET}\r\n`, 'utf16le')]) }) },
  ];

  it.each(plants.filter((plant) => !plant.gap))('$name: found in $entry as $place', async (plant) => {
    const leaks = await searchZip(await releaseZip(await plant.parts()), withheld());
    expect(leaks, JSON.stringify(leaks)).toContainEqual(expect.objectContaining({ entry: plant.entry, place: plant.place }));
  });

  for (const plant of plants.filter((entry) => entry.gap)) it.todo(`${plant.name}: found in ${plant.entry} as ${plant.place} (gap: ${plant.gap})`);
});

describe('verification of a written release (the worker\'s verify() and searchOutput())', () => {
  const dir = tempDir('obscura-mutations-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const sourcePath = path.join(dir, 'source.pdf');
  const secret = new RegExp(SECRET, 'i');

  function written(bytes: Buffer): { path: string; sha256: string } {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = path.join(dir, `${sha256}.pdf`);
    fs.writeFileSync(file, bytes);
    return { path: file, sha256 };
  }

  /** The export's checks of the two burned pages: the source to read withheld strings from, nothing of the builder's. */
  function checks(): PageCheck[] {
    fs.writeFileSync(sourcePath, source);
    return burnedPages.map((burned) => ({
      outputPage: burned.page,
      label: `document 7 page ${burned.page}`,
      words: burned.words ?? [],
      withheld: [],
      certify: { documentId: 7, sourcePath, sourceType: 'pdf', page: burned.page, method: burned.method === 'vector' ? 'vector' : 'raster', drawn: burned.drawnAreas ?? [], fallback: null },
    }));
  }

  const verifyFile = (bytes: Buffer, structure = false, search = false) => verify({ kind: 'export-verify', exportId: 1, ...written(bytes), expectedPages: 2, checks: checks(), structure, ...(search && { search }) });
  // As the runner does, a PDF's search may be handed the page texts its page checks read (verify's pageText).
  const searchFile = (bytes: Buffer, withheld: string[], format: 'pdf' | 'zip' = 'pdf', checked?: { pageText?: Record<number, string> }) => {
    const file = written(bytes);
    return searchOutput({ kind: 'export-search', exportId: 1, path: file.path, format, withheld, ...(checked?.pageText && { pageText: checked.pageText, sha256: file.sha256 }) });
  };

  async function failure(run: Promise<unknown>): Promise<string> {
    const error = await run.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(VerificationFailed);
    return (error as Error).message;
  }

  it('passes the correct release (structure included), and hands the withheld texts to the whole-file search, which passes too', async () => {
    const result = await verifyFile(clean, true);
    expect(result.withheld).toEqual([SECRET.toLowerCase()]);
    await expect(searchFile(clean, result.withheld ?? [])).resolves.toEqual({ kind: 'export-search', shown: { [SECRET.toLowerCase()]: 0 } });
    // The page texts the checks read are the ones the search would read (both pages checked: it reads none itself).
    expect(Object.keys(result.pageText ?? {}).sort()).toEqual(['1', '2']);
    await expect(searchFile(clean, result.withheld ?? [], 'pdf', result)).resolves.toEqual({ kind: 'export-search', shown: { [SECRET.toLowerCase()]: 0 } });
    // A file's only check task searches it too (a small file): the same counts.
    expect((await verifyFile(clean, true, true)).shown).toEqual({ [SECRET.toLowerCase()]: 0 });
    await expect(searchFile(await releaseZip({ pdf: clean }), result.withheld ?? [], 'zip')).resolves.toBeTruthy();
  });

  it('fails an invisible word planted on page 2, naming page 2 and the text layer, never the text', async () => {
    const message = await failure(verifyFile(await mutate(clean, (doc) => drawText(doc, 2, SECRET, { mode: 3 }))));
    expect(message).toContain('document 7 page 2 (output page 2) (text-layer)');
    expect(message).not.toMatch(secret);
  });

  // The allowance comes from the source alone: a builder that lists the planted word among the words it kept
  // (PageCheck.words) changes nothing.
  it("fails an invisible word planted on page 2 even when the builder's kept words list it (the allowance comes from the source alone)", async () => {
    const planted = written(await mutate(clean, (doc) => drawText(doc, 2, SECRET, { mode: 3 })));
    const listed = checks().map((check) => (check.outputPage === 2 ? { ...check, words: [...check.words, { text: SECRET, x1: 72, y1: 100, x2: 120, y2: 110 }] } : check));
    const message = await failure(verify({ kind: 'export-verify', exportId: 1, ...planted, expectedPages: 2, checks: listed, structure: false }));
    expect(message).toContain('document 7 page 2 (output page 2) (text-layer)');
    expect(message).not.toMatch(secret);
  });

  it('fails visible text planted on page 1 in another case, naming page 1 and the page text, never the text', async () => {
    const message = await failure(verifyFile(await mutate(clean, (doc) => drawText(doc, 1, SECRET.toUpperCase()))));
    expect(message).toContain('document 7 page 1 (output page 1) (page-text)');
    expect(message).not.toMatch(secret);
  });

  it.each([
    ['a Flate stream', 'stream', (doc: PDFDocument) => plantOrphanStream(doc, `applicant=${SECRET}`)],
    ['a percent-encoded URI', 'uri', (doc: PDFDocument) => plantUri(doc, 1, 'https://example.org/find?who=%56%61%73%68%74%69')],
    ['/Info /Title', 'metadata', (doc: PDFDocument) => plantInfoTitle(doc, PDFHexString.fromText(`Permit file of ${SECRET}`))],
    ['a form field value', 'field-value', (doc: PDFDocument) => plantField(doc, 1, PDFString.of('applicant'), PDFString.of(SECRET))],
  ] as const)('the whole-file search fails %s, naming the file and %s, never the text', async (_name, place, plant) => {
    const planted = await mutate(clean, plant);
    // The page checks pass (the page text holds no more than before); the object search does not.
    const verified = await verifyFile(planted);
    const message = await failure(searchFile(planted, verified.withheld ?? [], 'pdf', verified));
    expect(await failure(searchFile(planted, verified.withheld ?? []))).toBe(message);
    // Searched by the file's only check task, on its own reading: the same failure.
    expect(await failure(verifyFile(planted, false, true))).toBe(message);
    expect(message).toContain(`the file (${place})`);
    expect(message).not.toMatch(secret);
  });

  it('the search refuses page texts read from another file than the one it searches', async () => {
    const checked = await verifyFile(clean);
    const planted = await mutate(clean, (doc) => plantInfoTitle(doc, PDFHexString.fromText('A new title')));
    const message = await failure(searchOutput({ kind: 'export-search', exportId: 1, path: written(planted).path, format: 'pdf', withheld: checked.withheld ?? [], pageText: checked.pageText ?? {}, sha256: written(clean).sha256 }));
    expect(message).toContain('not the one its pages were checked in');
  });

  it('the package search fails the name in the index CSV, naming the entry, never the text', async () => {
    const zip = await releaseZip({ pdf: clean, rows: [{ ...(ROWS[0] as IndexRow), justification: `Name of ${SECRET}'s relative` }] });
    const message = await failure(searchFile(zip, [SECRET.toLowerCase()], 'zip'));
    expect(message).toContain('withholding-index.csv: the file (zip-entry)');
    expect(message).not.toMatch(secret);
  });
});
