import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { addAnnotation, appendContent, plantContents, plantField, plantInfoTitle, plantOrphanStream, plantOutline, plantUri, plantXmp } from '../../test/helpers/plant-leaks.js';
import type { Check } from '../types.js';
import { annotationAreas, type OpenPdf } from './pdfjs-render.js';
import { displayWords } from './poppler.js';
import { Haystack, leakedStrings, objectOccurrences, objectReadings, pageVisibility, type Visibility } from './release-oracle.js';

// The release-fidelity oracle judged on small PDFs planted here whose answer is known (issue 25): a word truly
// hidden must count as hidden and as leaked when the release keeps it, a shown word as shown, a planted string as
// found. One check per way the oracle can be fooled: each failed before its fix or guards what the fix loosened.

const DPI = 100;

/** A one-page PDF (300 × 200 pt) with `content` (Helvetica as /FPlant) and what `more` adds. */
async function planted(content: string, more: (doc: PDFDocument) => void = () => {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]);
  appendContent(doc, 1, content);
  more(doc);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** Poppler's words of page 1, each as the oracle sees it, and what it calls leaked if the release kept them all. */
async function judge(bytes: Buffer, openPdf: OpenPdf): Promise<{ seen: (text: string) => Visibility | 'absent'; leaked: (text: string) => boolean; interpreter: string }> {
  const words = displayWords(bytes, true).filter((word) => word.page === 1);
  const { shownAs, renders } = pageVisibility(bytes, 1, DPI, words, await annotationAreas(openPdf, bytes, 1));
  const withheld = new Map<string, string>(words.filter((word) => shownAs.get(word) === 'hidden').map((word) => [word.text, 'hidden']));
  for (const word of words) if (shownAs.get(word) !== 'hidden') withheld.set(word.text, 'boxed');
  // What a source shows outside boxes: nothing here, so every word is withheld and must be found in the release.
  const leaks = leakedStrings(withheld, new Haystack(''), new Haystack(''), bytes);
  return {
    seen: (text) => shownAs.get(words.find((word) => word.text === text) as never) ?? 'absent',
    leaked: (text) => leaks.some((line) => line.startsWith(`leaked ${JSON.stringify(text)}`)),
    interpreter: renders.interpreter,
  };
}

const covered = (text: string, y: number) => `BT /FPlant 14 Tf 40 ${y} Td (${text}) Tj ET 1 g 30 ${y - 10} 160 26 re f 0 g`;
const shown = (text: string, y: number) => `BT /FPlant 14 Tf 40 ${y} Td (${text}) Tj ET`;

/** Every self-check, each required: the bench's figures mean nothing if one fails. */
export async function oracleSelfChecks(openPdf: OpenPdf): Promise<Check[]> {
  const checks: Check[] = [];
  const check = (name: string, pass: boolean, detail: string) => checks.push({ name: `oracle self-check: ${name}`, pass, detail, required: true });
  const attempt = async (name: string, run: () => Promise<[boolean, string]>) => {
    try {
      const [pass, detail] = await run();
      check(name, pass, detail);
    } catch (error) {
      check(name, false, error instanceof Error ? (error.message.split('\n')[0] ?? 'failed') : String(error));
    }
  };

  // bug1868759: links over a covered list lent it the "viewers draw fields" excuse; a link draws no text.
  await attempt('a covered word under a link is hidden, and leaked when kept', async () => {
    const bytes = await planted(`${covered('Secretlink', 150)} ${shown('Shownlink', 60)}`, (doc) => {
      for (const y of [145, 55]) addAnnotation(doc, 1, { Subtype: 'Link', Rect: [35, y, 130, y + 20], Border: [0, 0, 0], A: { S: 'URI', URI: PDFString.of('https://example.org/') } });
    });
    const { seen, leaked } = await judge(bytes, openPdf);
    return [seen('Secretlink') === 'hidden' && leaked('Secretlink') && seen('Shownlink') === 'shown', `covered ${seen('Secretlink')}, leaked ${leaked('Secretlink')}; visible ${seen('Shownlink')}`];
  });

  // Another word's glyphs over a covered one (a header over a hidden line) must not make it shown.
  await attempt('a covered word under overlapping visible text is hidden, and leaked when kept', async () => {
    const bytes = await planted(`${covered('Secretunder', 120)} ${shown('Headerover', 129)}`);
    const { seen, leaked } = await judge(bytes, openPdf);
    return [seen('Secretunder') === 'hidden' && leaked('Secretunder') && seen('Headerover') === 'shown', `covered ${seen('Secretunder')}, leaked ${leaked('Secretunder')}; overlapping ${seen('Headerover')}`];
  });

  // issue12823: Ghostscript's legacy interpreter stops at a Type 0 font without a descendant; what follows must be
  // judged (by the new interpreter), not all called hidden.
  await attempt('after a font the legacy Ghostscript stops at: shown stays shown, covered stays hidden and leaked', async () => {
    const bytes = await planted(`${shown('Beforebreak', 170)} BT /FBroken 14 Tf 40 150 Td <0001> Tj ET ${shown('Afterbreak', 120)} ${covered('Secretafter', 60)}`, (doc) => {
      const font = doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'Broken', Encoding: 'Identity-H', DescendantFonts: [null] } as never));
      doc.getPage(0).node.setFontDictionary(PDFName.of('FBroken'), font);
    });
    const { seen, leaked, interpreter } = await judge(bytes, openPdf);
    return [seen('Afterbreak') === 'shown' && seen('Secretafter') === 'hidden' && leaked('Secretafter'), `${interpreter} interpreter; after ${seen('Afterbreak')}, covered ${seen('Secretafter')}, leaked ${leaked('Secretafter')}`];
  });

  // tracemonkey: a TJ's pieces are one word only across kerns under a word space (poppler's 0.1 em).
  await attempt('a word kerned across TJ pieces is counted; pieces a word space apart are not joined', async () => {
    const bytes = await planted('BT /FPlant 14 Tf 40 120 Td [(Secr) -20 (etkern)] TJ ET BT /FPlant 14 Tf 40 80 Td [(Wordone) -400 (twoword)] TJ ET');
    const readings = objectReadings(bytes);
    const kerned = objectOccurrences(readings, 'Secretkern').count;
    const spaced = objectOccurrences(readings, 'Wordonetwoword').count;
    const leaked = leakedStrings(new Map([['Secretkern', 'boxed']]), new Haystack(''), new Haystack(''), bytes).length;
    return [kerned === 1 && spaced === 0 && leaked === 1, `kerned word ${kerned} (leaked ${leaked}), across a word space ${spaced}`];
  });

  // tracemonkey: every ToUnicode map says "begincodespacerange": vocabulary, not text; a string in a map is text.
  await attempt('CMap vocabulary is not text; a string planted in a CMap is found', async () => {
    const cmap = (extra: string) =>
      `/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Adobe-Identity-UCS def /CMapType 2 def\n1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfchar <01> <0041> endbfchar ${extra}\nendcmap CMapName currentdict /CMap defineresource pop end end`;
    // Reached from the catalog (unreachable objects are read another way).
    const withCMap = (text: string) => planted('', (doc) => doc.catalog.set(PDFName.of('PlantedCMap'), doc.context.register(doc.context.flateStream(text))));
    const clean = objectReadings(await withCMap(cmap('')));
    const dirty = objectReadings(await withCMap(cmap('(code) pop')));
    const vocabulary = objectOccurrences(clean, 'code').count + objectOccurrences(clean, 'range').count;
    const found = objectOccurrences(dirty, 'code').count;
    return [vocabulary === 0 && found === 1, `vocabulary ${vocabulary}, planted ${found}`];
  });

  // Strings planted where a PDF carries text outside page content (test/helpers/plant-leaks.ts) are all found.
  await attempt('a word planted outside the page content is found wherever it is put', async () => {
    const word = 'Plantedword';
    const plants: [string, (doc: PDFDocument) => void][] = [
      ['URI', (doc) => plantUri(doc, 1, `https://example.org/${word}`)],
      ['note', (doc) => plantContents(doc, 1, PDFString.of(word))],
      ['field', (doc) => plantField(doc, 1, PDFString.of('name'), PDFString.of(word))],
      ['outline', (doc) => plantOutline(doc, 1, PDFString.of(word))],
      ['title', (doc) => plantInfoTitle(doc, PDFString.of(word))],
      ['XMP', (doc) => plantXmp(doc, word, true)],
      ['orphan stream', (doc) => plantOrphanStream(doc, word)],
    ];
    const missed: string[] = [];
    for (const [where, plant] of plants) {
      if (leakedStrings(new Map([[word, 'boxed']]), new Haystack(''), new Haystack(''), await planted('', plant)).length !== 1) missed.push(where);
    }
    return [missed.length === 0, missed.length === 0 ? `${plants.length} places` : `missed in ${missed.join(', ')}`];
  });
  return checks;
}
