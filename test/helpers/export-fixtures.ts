import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import {
  beginText,
  PDFDict,
  degrees,
  endText,
  moveText,
  PDFDocument,
  PDFName,
  PDFString,
  setFontAndSize,
  setTextRenderingMode,
  showText,
  StandardFonts,
  TextRenderingMode,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import { DownloadUrl } from '../../main/common/schemas/documents.js';
import { Export } from '../../main/common/schemas/exports.js';
import { DEFAULT_RELEASE_SETTINGS, SAFEGUARDS } from '../../main/common/schemas/releases.js';
import { putReleaseSettings } from '../../main/db/queries/release-settings.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { upsertDocumentPage } from '../../main/db/queries/document-pages.js';
import { startExportRunner, type ExportRunner } from '../../main/jobs/export/index.js';
import { WorkerPool } from '../../main/jobs/pool.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from './instance.js';
import { tempDir } from './temp.js';
import { darkShare, encodings, pdftotext, qpdfCheck, qpdfExpanded, rawTexts, renderGray, userRectToPixels, type Rect } from './pdf-tools.js';

export { darkShare, encodings, pdftotext, qpdfCheck, qpdfExpanded, rawTexts, renderGray, userRectToPixels, type Rect } from './pdf-tools.js';
import { dataOf, getUrl } from './integration-support.js';
import { createBoxes, type BoxItem } from './v1-redactions-support.js';
import { testSans } from './canvas-font.js';

// The leak corpus: documents made here, with the words each redaction covers and the words that must stay.
// Every secret is a made-up word that occurs nowhere else, so finding it anywhere in an output is a leak.


export type Review = 'accepted' | 'review-accept' | 'pending' | 'review-reject';

export interface PlannedBox {
  page: number;
  kind: 'rectangle' | 'polygon';
  layer: string;
  /** Rectangle (or the polygon's bounds) in the document's units. */
  rect: Rect;
  points?: { x: number; y: number }[];
  review: Review;
  reason?: string;
  classification?: string;
  pendingReason?: Record<string, unknown>;
}

export interface StoredPage {
  page: number;
  unit: 'pdf_points' | 'image_pixels';
  width: number;
  height: number;
  words: PageWord[];
}

/** What a rendering of the document's own output file must show in a rectangle. */
export interface PixelCheck {
  page: number;
  /** In the document's units. */
  rect: Rect;
  /** The page's visible box (PDF user space) and /Rotate; images: null. */
  view: Rect | null;
  rotate: number;
  /** black: a withheld area; content: a kept word, inked but not blacked out. */
  expect: 'black' | 'content';
}

export interface CorpusDocument {
  name: string;
  bytes: Buffer;
  type: 'pdf' | 'png' | 'tiff';
  pages: number;
  stored: StoredPage[];
  boxes: PlannedBox[];
  pixelChecks: PixelCheck[];
}

export interface Corpus {
  documents: CorpusDocument[];
  /** Words that no export may contain, in any form. */
  secrets: string[];
  /** Words pdftotext must still find in a default export. */
  kept: string[];
  /** Shown unless pending suggestions are included. */
  pendingWord: string;
}

const SIZE = 12;

/** The box of `word` inside a line of text drawn at (x, y) with pdf-lib's Helvetica, in PDF points. */
function wordRect(font: PDFFont, line: string, word: string, x: number, y: number, size = SIZE): Rect {
  const at = line.indexOf(word);
  if (at < 0) throw new Error(`${word} is not in "${line}"`);
  const start = x + font.widthOfTextAtSize(line.slice(0, at), size);
  return { x1: start - 1, y1: y - 0.25 * size, x2: start + font.widthOfTextAtSize(word, size) + 1, y2: y + 0.9 * size };
}

function draw(page: PDFPage, font: PDFFont, text: string, x: number, y: number, size = SIZE): void {
  page.drawText(text, { x, y, size, font });
}

/** Appends an incremental update that replaces objects; returns the new file. */
function appendUpdate(bytes: Uint8Array, objects: { num: number; body: string }[], rootRef: string): Buffer {
  const text = Buffer.from(bytes).toString('latin1');
  const previous = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1];
  const lastTrailer = text.slice(text.lastIndexOf('trailer'));
  const size = Number(/\/Size (\d+)/.exec(lastTrailer)?.[1] ?? 0);
  const info = /\/Info (\d+ \d+ R)/.exec(lastTrailer)?.[1];
  if (!previous || !size) throw new Error('cannot append an update to this file');
  let body = text.endsWith('\n') ? text : `${text}\n`;
  const offsets: { num: number; offset: number }[] = [];
  for (const object of objects) {
    offsets.push({ num: object.num, offset: Buffer.byteLength(body, 'latin1') });
    body += `${object.num} 0 obj\n${object.body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += 'xref\n';
  for (const entry of offsets.sort((a, b) => a.num - b.num)) body += `${entry.num} 1\n${String(entry.offset).padStart(10, '0')} 00000 n \n`;
  const newSize = Math.max(size, ...objects.map((object) => object.num + 1));
  body += `trailer\n<< /Size ${newSize} /Root ${rootRef}${info ? ` /Info ${info}` : ''} /Prev ${previous} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Seven pages of born-digital text with every kind of box, and every document-level hiding place used. */
async function bornDigital(): Promise<CorpusDocument> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const boxes: PlannedBox[] = [];
  const checks: PixelCheck[] = [];
  const letter = { x1: 0, y1: 0, x2: 612, y2: 792 };
  const cropped = { x1: 100, y1: 150, x2: 550, y2: 700 };
  const black = (page: number, rect: Rect, view = letter, rotate = 0) => checks.push({ page, rect, view, rotate, expect: 'black' });
  const content = (page: number, rect: Rect, view = letter, rotate = 0) => checks.push({ page, rect, view, rotate, expect: 'content' });

  // Page 1: plain lines; a box accepted by review, a box cutting a word in half, a polygon, a suggestion left
  // pending, a rejected one, and a form field whose value sits under a box.
  const p1 = doc.addPage([612, 792]);
  const lines = {
    harbor: 'Caseworker Harborview reviewed the file',
    zebulon: 'Applicant Zebulon Quartz requested records',
    marigold: 'Address Marigoldstreet 12',
    violet: 'Contact Violetcrown today',
    pending: 'Pendingword stays unless asked',
    rejected: 'Rejectedword remains visible',
    ledger: 'Reference number Ledgerstone',
  };
  const baselines = { harbor: 720, zebulon: 690, marigold: 660, violet: 630, pending: 600, rejected: 570, ledger: 540 };
  for (const key of Object.keys(lines) as (keyof typeof lines)[]) draw(p1, font, lines[key], 72, baselines[key]);
  const zebulon = wordRect(font, lines.zebulon, 'Zebulon Quartz', 72, baselines.zebulon);
  boxes.push({ page: 1, kind: 'rectangle', layer: 'B6', rect: zebulon, review: 'review-accept', reason: 'applicant name' });
  black(1, zebulon);
  const marigold = wordRect(font, lines.marigold, 'Marigoldstreet', 72, baselines.marigold);
  const leftHalf = { ...marigold, x2: (marigold.x1 + marigold.x2) / 2 };
  boxes.push({ page: 1, kind: 'rectangle', layer: 'B6', rect: leftHalf, review: 'accepted', reason: 'half a street name' });
  black(1, leftHalf);
  const violet = wordRect(font, lines.violet, 'Violetcrown', 72, baselines.violet);
  const quad = [
    { x: violet.x1 - 6, y: violet.y1 - 6 },
    { x: violet.x2 + 8, y: violet.y1 - 9 },
    { x: violet.x2 + 12, y: violet.y2 + 7 },
    { x: violet.x1 - 4, y: violet.y2 + 10 },
  ];
  boxes.push({ page: 1, kind: 'polygon', layer: 'B7', rect: bounds(quad), points: quad, review: 'accepted', reason: 'informant' });
  black(1, violet);
  boxes.push({ page: 1, kind: 'rectangle', layer: 'B6', rect: wordRect(font, lines.pending, 'Pendingword', 72, baselines.pending), review: 'pending', pendingReason: { entity: 'PERSON', text: 'Zebulon' } });
  boxes.push({ page: 1, kind: 'rectangle', layer: 'B6', rect: wordRect(font, lines.rejected, 'Rejectedword', 72, baselines.rejected), review: 'review-reject' });
  const form = doc.getForm();
  const field = form.createTextField('applicant.secret');
  field.setText('Formsecret');
  field.addToPage(p1, { x: 72, y: 470, width: 200, height: 24, font });
  const fieldBox = { x1: 66, y1: 464, x2: 280, y2: 500 };
  boxes.push({ page: 1, kind: 'rectangle', layer: 'B3', rect: fieldBox, review: 'accepted', reason: 'statute' });
  black(1, fieldBox);
  content(1, wordRect(font, lines.harbor, 'Harborview', 72, baselines.harbor));

  // Page 2: two columns on shared baselines.
  const p2 = doc.addPage([612, 792]);
  draw(p2, font, 'Lindenbaum archive notes', 72, 700);
  draw(p2, font, 'Ostrakon ledger entry', 330, 700);
  draw(p2, font, 'Quillfeather memo', 72, 680);
  draw(p2, font, 'Saltmarsh report', 330, 680);
  const ostrakon = wordRect(font, 'Ostrakon ledger entry', 'Ostrakon', 330, 700);
  const quill = wordRect(font, 'Quillfeather memo', 'Quillfeather', 72, 680);
  boxes.push({ page: 2, kind: 'rectangle', layer: 'B5', rect: ostrakon, review: 'accepted' }, { page: 2, kind: 'rectangle', layer: 'B5', rect: quill, review: 'accepted' });
  black(2, ostrakon);
  black(2, quill);
  content(2, wordRect(font, 'Lindenbaum archive notes', 'Lindenbaum', 72, 700));

  // Page 3: /Rotate 90; boxes are in the unrotated user space.
  const p3 = doc.addPage([612, 792]);
  p3.setRotation(degrees(90));
  const rotatedLine = 'Pemberton account Wexford4417 closed';
  draw(p3, font, rotatedLine, 100, 400);
  const wexford = wordRect(font, rotatedLine, 'Wexford4417', 100, 400);
  boxes.push({ page: 3, kind: 'rectangle', layer: 'B4', rect: wexford, review: 'accepted' });
  black(3, wexford, letter, 90);
  content(3, wordRect(font, rotatedLine, 'Pemberton', 100, 400), letter, 90);

  // Page 4: crop box offset from the media box; text outside the crop box was never visible.
  const p4 = doc.addPage([612, 792]);
  p4.setCropBox(cropped.x1, cropped.y1, cropped.x2 - cropped.x1, cropped.y2 - cropped.y1);
  draw(p4, font, 'Juniperhall Thistledown visible', 150, 600);
  draw(p4, font, 'Outsidecrop hiddenmargin', 20, 60);
  const thistle = wordRect(font, 'Juniperhall Thistledown visible', 'Thistledown', 150, 600);
  boxes.push({ page: 4, kind: 'rectangle', layer: 'B6', rect: thistle, review: 'accepted' });
  black(4, thistle, cropped);
  content(4, wordRect(font, 'Juniperhall Thistledown visible', 'Juniperhall', 150, 600), cropped);

  // Page 5: withheld in full.
  const p5 = doc.addPage([612, 792]);
  draw(p5, font, 'Fullpagesecret Alpha Bravo', 72, 700);
  boxes.push({ page: 5, kind: 'rectangle', layer: 'B1', classification: 'secret', rect: letter, review: 'accepted', reason: 'classified' });
  black(5, { x1: 4, y1: 4, x2: 608, y2: 788 });

  // Page 6: no redaction; carries a sticky note, and an earlier revision of its text held a secret.
  const p6 = doc.addPage([612, 792]);
  draw(p6, font, 'Revisionsecret was here before', 72, 700);
  const note = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [500, 700, 520, 720], Contents: PDFString.of('Annotsecret'), Open: false }));
  p6.node.set(PDFName.of('Annots'), doc.context.obj([note]));

  // Page 7: no redaction, but a stamp whose appearance shows on the page: rendered, not copied.
  const p7 = doc.addPage([612, 792]);
  draw(p7, font, 'Stamppage Visible stamp below', 72, 700);
  const fontRef = (p7.node.Resources()?.lookup(PDFName.of('Font'), PDFDict)?.values()[0] ?? font.ref) as never;
  const stampContent = '1 0 0 RG 3 w 2 2 116 36 re S BT /F1 14 Tf 12 14 Td (APPROVED) Tj ET';
  const appearance = doc.context.register(
    doc.context.stream(stampContent, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 120, 40], Resources: { Font: { F1: fontRef } } }),
  );
  const stamp = doc.context.register(
    doc.context.obj({ Type: 'Annot', Subtype: 'Square', Rect: [400, 600, 520, 640], F: 4, AP: { N: appearance }, Contents: PDFString.of('Annotsecret stamp note') }),
  );
  p7.node.set(PDFName.of('Annots'), doc.context.obj([stamp]));
  content(7, { x1: 398, y1: 598, x2: 522, y2: 642 });

  // Page 8: only what content-level redaction (method auto) handles: a box cutting a word, a polygon, text
  // drawn invisible under a box, and a word whose marked-content property list repeats it as /ActualText.
  const p8 = doc.addPage([612, 792]);
  const halfLine = 'Vectorkeep alpha Cinnabarhalf trailing';
  draw(p8, font, halfLine, 72, 700);
  const cinnabar = wordRect(font, halfLine, 'Cinnabarhalf', 72, 700);
  const cinnabarLeft = { ...cinnabar, x2: (cinnabar.x1 + cinnabar.x2) / 2 };
  boxes.push({ page: 8, kind: 'rectangle', layer: 'B6', rect: cinnabarLeft, review: 'accepted' });
  black(8, cinnabarLeft);
  content(8, wordRect(font, halfLine, 'Vectorkeep', 72, 700));
  const polygonLine = 'Polygonal beta Gossamerine gamma region';
  draw(p8, font, polygonLine, 72, 660);
  const gossamer = wordRect(font, polygonLine, 'Gossamerine', 72, 660);
  const kite = [
    { x: gossamer.x1, y: (gossamer.y1 + gossamer.y2) / 2 },
    { x: (gossamer.x1 + gossamer.x2) / 2, y: gossamer.y1 - 2 },
    { x: gossamer.x2, y: (gossamer.y1 + gossamer.y2) / 2 },
    { x: (gossamer.x1 + gossamer.x2) / 2, y: gossamer.y2 + 2 },
  ];
  boxes.push({ page: 8, kind: 'polygon', layer: 'B7', rect: bounds(kite), points: kite, review: 'accepted' });
  black(8, { x1: (gossamer.x1 + gossamer.x2) / 2 - 3, y1: gossamer.y1 + 2, x2: (gossamer.x1 + gossamer.x2) / 2 + 3, y2: gossamer.y2 - 2 });
  const p8Font = p8.node.Resources()?.lookup(PDFName.of('Font'), PDFDict)?.keys()[0]?.decodeText() ?? 'F1';
  p8.node.addContentStream(
    doc.context.register(
      doc.context.stream(
        `/Span /MC0 BDC BT /${p8Font} 12 Tf 3 Tr 72 620 Td (Invisiblesecret) Tj ET EMC /Span << /ActualText (Actualsecret) >> BDC BT /${p8Font} 12 Tf 72 580 Td (Wrappedword) Tj ET EMC`,
      ),
    ),
  );
  p8.node.Resources()?.set(PDFName.of('Properties'), doc.context.obj({ MC0: { ActualText: PDFString.of('Propertysecret') } }));
  const hiddenBox = wordRect(font, 'Invisiblesecret', 'Invisiblesecret', 72, 620);
  const wrappedBox = wordRect(font, 'Wrappedword', 'Wrappedword', 72, 580);
  boxes.push({ page: 8, kind: 'rectangle', layer: 'B6', rect: hiddenBox, review: 'accepted' }, { page: 8, kind: 'rectangle', layer: 'B6', rect: wrappedBox, review: 'accepted' });
  black(8, wrappedBox);

  doc.setTitle('Infosecret');
  doc.setAuthor('Infosecret author');
  doc.addJavaScript('greeting', 'app.alert("Jssecret");');
  await doc.attach(Buffer.from('Attachsecret inside an attachment'), 'notes.txt', { mimeType: 'text/plain', description: 'Attachsecret' });
  const xmp = doc.context.stream('<?xpacket begin=""?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><dc:title>Xmpsecret</dc:title></rdf:RDF></x:xmpmeta><?xpacket end="w"?>', {
    Type: 'Metadata',
    Subtype: 'XML',
  });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(xmp));
  const outlineRoot = doc.context.nextRef();
  const outlineItem = doc.context.register(doc.context.obj({ Title: PDFString.of('Outlinesecret'), Parent: outlineRoot, Dest: [p1.ref, PDFName.of('Fit')] }));
  doc.context.assign(outlineRoot, doc.context.obj({ Type: 'Outlines', First: outlineItem, Last: outlineItem, Count: 1 }));
  doc.catalog.set(PDFName.of('Outlines'), outlineRoot);
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert("Jssecret open")') }));

  const saved = await doc.save({ useObjectStreams: false });
  // An incremental update gives page 6 new content; the old stream, with its secret, stays in the file.
  const fonts = p6.node.Resources()?.lookup(PDFName.of('Font'), PDFDict);
  const fontKey = fonts?.keys()[0]?.decodeText() ?? 'F1';
  const text = `BT /${fontKey} 12 Tf 72 700 Td (Plainpage Visible text) Tj ET`;
  const contentsNum = doc.context.largestObjectNumber + 1;
  const pageBody = p6.node.toString().replace(/\/Contents (\[[^\]]*\]|\d+ 0 R)/, `/Contents ${contentsNum} 0 R`);
  if (!pageBody.includes(`/Contents ${contentsNum} 0 R`)) throw new Error('the update did not replace the page content');
  const updated = appendUpdate(
    saved,
    [
      { num: contentsNum, body: `<< /Length ${text.length} >>\nstream\n${text}\nendstream` },
      { num: p6.ref.objectNumber, body: pageBody },
    ],
    String(doc.context.trailerInfo.Root),
  );
  return { name: 'born-digital.pdf', bytes: updated, type: 'pdf', pages: 8, stored: [], boxes, pixelChecks: checks };
}

function bounds(points: { x: number; y: number }[]): Rect {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}

interface DrawnLine {
  text: string;
  x: number;
  baseline: number;
}

/** Black text on white pixels, like a scan; returns the canvas and each word's pixel box (top-left origin). */
function paintText(width: number, height: number, lines: DrawnLine[], size: number) {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = `${size}px ${testSans()}`;
  const words: PageWord[] = [];
  for (const line of lines) {
    context.fillText(line.text, line.x, line.baseline);
    let offset = 0;
    for (const word of line.text.split(' ')) {
      const before = context.measureText(line.text.slice(0, line.text.indexOf(word, offset))).width;
      const metrics = context.measureText(word);
      words.push({ text: word, x1: line.x + before, y1: line.baseline - size * 0.8, x2: line.x + before + metrics.width, y2: line.baseline + size * 0.25, confidence: 91 });
      offset = line.text.indexOf(word, offset) + word.length;
    }
  }
  return { canvas, context, words };
}

function pixelRect(words: PageWord[], text: string, grow = 4): Rect {
  const word = words.find((entry) => entry.text === text);
  if (!word) throw new Error(`no word ${text}`);
  return { x1: word.x1 - grow, y1: word.y1 - grow, x2: word.x2 + grow, y2: word.y2 + grow };
}

/** A scanned page: a picture of text, an invisible OCR text layer in the file, and stored OCR words. */
async function scannedPdf(): Promise<CorpusDocument> {
  const scale = 150 / 72;
  const painted = paintText(1275, 1650, [
    { text: 'Scanned Hollowmere letter', x: 150, baseline: 300 },
    { text: 'Kestrelwood 555 0199', x: 150, baseline: 400 },
  ], 48);
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const image = await doc.embedPng(await painted.canvas.encode('png'));
  page.drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  const toPoints = (word: PageWord): PageWord => ({ ...word, x1: word.x1 / scale, x2: word.x2 / scale, y1: 792 - word.y2 / scale, y2: 792 - word.y1 / scale });
  const words = painted.words.map(toPoints);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const fontName = page.node.newFontDictionary('OCR', font.ref);
  for (const word of words) {
    page.pushOperators(beginText(), setFontAndSize(fontName, 20), setTextRenderingMode(TextRenderingMode.Invisible), moveText(word.x1, word.y1 + 3), showText(font.encodeText(word.text)), endText());
  }
  const secret = words.find((word) => word.text === 'Kestrelwood') as PageWord;
  return {
    name: 'scanned.pdf',
    bytes: Buffer.from(await doc.save()),
    type: 'pdf',
    pages: 1,
    stored: [{ page: 1, unit: 'pdf_points', width: 612, height: 792, words }],
    boxes: [{ page: 1, kind: 'rectangle', layer: 'B6', rect: { x1: secret.x1 - 3, y1: secret.y1 - 3, x2: secret.x2 + 3, y2: secret.y2 + 3 }, review: 'accepted' }],
    pixelChecks: [{ page: 1, rect: secret, view: { x1: 0, y1: 0, x2: 612, y2: 792 }, rotate: 0, expect: 'black' }],
  };
}

/** A PNG of text with stored OCR words; a rectangle and a polygon over two words. */
async function photoPng(): Promise<CorpusDocument> {
  const painted = paintText(800, 400, [
    { text: 'Keepimage Cobblestone', x: 40, baseline: 120 },
    { text: 'Imagesecret Rosewater', x: 40, baseline: 260 },
  ], 44);
  const rose = pixelRect(painted.words, 'Rosewater');
  const secret = pixelRect(painted.words, 'Imagesecret', 6);
  const middle = (secret.y1 + secret.y2) / 2;
  const pentagon = [
    { x: secret.x1 - 8, y: secret.y1 - 8 },
    { x: secret.x2 + 8, y: secret.y1 - 8 },
    { x: secret.x2 + 24, y: middle },
    { x: secret.x2 + 8, y: secret.y2 + 8 },
    { x: secret.x1 - 8, y: secret.y2 + 8 },
  ];
  return {
    name: 'photo.png',
    bytes: Buffer.from(await painted.canvas.encode('png')),
    type: 'png',
    pages: 1,
    stored: [{ page: 1, unit: 'image_pixels', width: 800, height: 400, words: painted.words }],
    boxes: [
      { page: 1, kind: 'rectangle', layer: 'B6', rect: rose, review: 'accepted' },
      { page: 1, kind: 'polygon', layer: 'B7', rect: bounds(pentagon), points: pentagon, review: 'accepted' },
    ],
    pixelChecks: [
      { page: 1, rect: rose, view: null, rotate: 0, expect: 'black' },
      { page: 1, rect: secret, view: null, rotate: 0, expect: 'black' },
      { page: 1, rect: pixelRect(painted.words, 'Cobblestone', 0), view: null, rotate: 0, expect: 'content' },
    ],
  };
}

/** Little-endian, 8-bit grey, uncompressed, several strips per page, one IFD per page. */
export function grayTiff(pages: { width: number; height: number; gray: Uint8Array }[], rowsPerStrip = 64): Buffer {
  const chunks: Buffer[] = [Buffer.alloc(8)];
  chunks[0]?.write('II', 0, 'latin1');
  chunks[0]?.writeUInt16LE(42, 2);
  let offset = 8;
  const ifdOffsets: number[] = [];
  const layouts = pages.map((page) => {
    const strips: { offset: number; length: number }[] = [];
    for (let top = 0; top < page.height; top += rowsPerStrip) {
      const rows = Math.min(rowsPerStrip, page.height - top);
      const data = Buffer.from(page.gray.subarray(top * page.width, (top + rows) * page.width));
      strips.push({ offset, length: data.length });
      chunks.push(data);
      offset += data.length;
    }
    return strips;
  });
  const ifds: Buffer[] = [];
  pages.forEach((page, index) => {
    const strips = layouts[index] ?? [];
    const arrays = Buffer.alloc(strips.length * 8);
    strips.forEach((strip, position) => {
      arrays.writeUInt32LE(strip.offset, position * 4);
      arrays.writeUInt32LE(strip.length, strips.length * 4 + position * 4);
    });
    const arraysAt = offset;
    chunks.push(arrays);
    offset += arrays.length;
    const entries: [number, number, number, number][] = [
      [256, 4, 1, page.width],
      [257, 4, 1, page.height],
      [258, 3, 1, 8],
      [259, 3, 1, 1],
      [262, 3, 1, 1],
      [273, 4, strips.length, strips.length === 1 ? (strips[0]?.offset ?? 0) : arraysAt],
      [277, 3, 1, 1],
      [278, 4, 1, rowsPerStrip],
      [279, 4, strips.length, strips.length === 1 ? (strips[0]?.length ?? 0) : arraysAt + strips.length * 4],
    ];
    const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
    ifd.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, count, value], position) => {
      const at = 2 + position * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(count, at + 4);
      if (type === 3 && count === 1) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    ifdOffsets.push(offset);
    ifds.push(ifd);
    chunks.push(ifd);
    offset += ifd.length;
  });
  const file = Buffer.concat(chunks);
  file.writeUInt32LE(ifdOffsets[0] ?? 0, 4);
  ifdOffsets.forEach((at, index) => {
    const entriesCount = file.readUInt16LE(at);
    file.writeUInt32LE(ifdOffsets[index + 1] ?? 0, at + 2 + entriesCount * 12);
  });
  return file;
}

function grayOf(canvas: Canvas): Uint8Array {
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const gray = new Uint8Array(canvas.width * canvas.height);
  for (let index = 0; index < gray.length; index += 1) gray[index] = data[index * 4] ?? 255;
  return gray;
}

/** A two-page TIFF (several strips a page) with stored OCR words; page 2 carries the secret. */
function scanTiff(): CorpusDocument {
  const first = paintText(600, 300, [{ text: 'Tiffkeep Meadowlark', x: 30, baseline: 150 }], 40);
  const second = paintText(600, 300, [{ text: 'Tiffsecret Brambleton', x: 30, baseline: 150 }], 40);
  const bytes = grayTiff([
    { width: 600, height: 300, gray: grayOf(first.canvas) },
    { width: 600, height: 300, gray: grayOf(second.canvas) },
  ]);
  const secret = pixelRect(second.words, 'Tiffsecret');
  return {
    name: 'scan.tiff',
    bytes,
    type: 'tiff',
    pages: 2,
    stored: [
      { page: 1, unit: 'image_pixels', width: 600, height: 300, words: first.words },
      { page: 2, unit: 'image_pixels', width: 600, height: 300, words: second.words },
    ],
    boxes: [{ page: 2, kind: 'rectangle', layer: 'B6', rect: secret, review: 'accepted' }],
    pixelChecks: [
      { page: 2, rect: secret, view: null, rotate: 0, expect: 'black' },
      { page: 2, rect: pixelRect(second.words, 'Brambleton', 0), view: null, rotate: 0, expect: 'content' },
    ],
  };
}

/**
 * Two pages sharing one resource dictionary: page 1 draws a form holding a secret (under a box), page 2 draws
 * other text. Copying page 2 must not bring page 1's form along.
 */
async function sharedResources(): Promise<CorpusDocument> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([612, 792]);
  const second = doc.addPage([612, 792]);
  const form = doc.context.register(
    doc.context.stream('BT /F1 12 Tf 72 700 Td (Sharedsecret drawn by a form) Tj ET', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 612, 792], Resources: { Font: { F1: font.ref } } }),
  );
  const shared = doc.context.register(doc.context.obj({ Font: { F1: font.ref }, XObject: { Fx: form } }));
  const firstContent = doc.context.register(doc.context.stream('q /Fx Do Q'));
  const secondContent = doc.context.register(doc.context.stream('BT /F1 12 Tf 72 700 Td (Sharedkeep on the second page) Tj ET'));
  for (const [page, contents] of [[first, firstContent], [second, secondContent]] as const) {
    page.node.set(PDFName.of('Resources'), shared);
    page.node.set(PDFName.of('Contents'), contents);
  }
  const secret = wordRect(font, 'Sharedsecret drawn by a form', 'Sharedsecret', 72, 700);
  return {
    name: 'shared.pdf',
    bytes: Buffer.from(await doc.save({ useObjectStreams: false })),
    type: 'pdf',
    pages: 2,
    stored: [],
    boxes: [{ page: 1, kind: 'rectangle', layer: 'B6', rect: secret, review: 'accepted' }],
    pixelChecks: [{ page: 1, rect: secret, view: { x1: 0, y1: 0, x2: 612, y2: 792 }, rotate: 0, expect: 'black' }],
  };
}

export async function buildCorpus(): Promise<Corpus> {
  return {
    documents: [await bornDigital(), await scannedPdf(), await photoPng(), scanTiff(), await sharedResources()],
    secrets: [
      'Zebulon',
      'Quartz',
      'Marigoldstreet',
      'Violetcrown',
      'Formsecret',
      'Ostrakon',
      'Quillfeather',
      'Wexford4417',
      'Thistledown',
      'Outsidecrop',
      'hiddenmargin',
      'Fullpagesecret',
      'Annotsecret',
      'Revisionsecret',
      'Infosecret',
      'Xmpsecret',
      'Attachsecret',
      'Jssecret',
      'Outlinesecret',
      'Kestrelwood',
      'Rosewater',
      'Imagesecret',
      'Tiffsecret',
      'Sharedsecret',
      'Cinnabarhalf',
      'Gossamerine',
      'Invisiblesecret',
      'Actualsecret',
      'Propertysecret',
      'Wrappedword',
    ],
    kept: ['Vectorkeep', 'trailing', 'Polygonal', 'region', 'Harborview', 'Ledgerstone', 'Lindenbaum', 'Saltmarsh', 'Pemberton', 'Juniperhall', 'Plainpage', 'Stamppage', 'Rejectedword', 'Hollowmere', 'Cobblestone', 'Keepimage', 'Tiffkeep', 'Meadowlark', 'Brambleton', 'Sharedkeep'],
    pendingWord: 'Pendingword',
  };
}

/** Stores the corpus document's OCR/text-layer words as a job would have. */
export async function storePages(instance: TestInstance, organizationId: number, documentId: string, pages: StoredPage[]): Promise<void> {
  for (const page of pages) {
    await upsertDocumentPage(instance.runtime.db, {
      organization_id: organizationId,
      document_id: Number(documentId),
      page_number: page.page,
      source: 'ocr',
      job_id: null,
      unit: page.unit,
      width: page.width,
      height: page.height,
      rotation: 0,
      text: page.words.map((word) => word.text).join(' '),
      words: JSON.stringify(page.words),
      mean_confidence: 91,
      created_at: new Date().toISOString(),
    });
  }
}









// Driving exports through the API.

export interface Harness {
  instance: TestInstance;
  pool: WorkerPool;
  /** The running export runner, or null while stopped. */
  runner: ExportRunner | null;
  startRunner(): Promise<ExportRunner>;
  stopRunner(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A test instance (rate limits off) with the export runner on a real worker pool (started unless told). The
 * release safeguards (approval, separation of duties…) are turned off in its organizations unless
 * `safeguards: true`: suites about burn-in and formats release unreviewed cases; releases-*.test.ts keep them.
 */
export async function startExportHarness(options: Parameters<typeof startInstance>[0] & { runner?: boolean; safeguards?: boolean } = {}): Promise<Harness> {
  const instance = await startInstance({ ...options, config: { rateLimits: { enabled: false }, ...options.config } });
  if (!options.safeguards) {
    const off = { ...DEFAULT_RELEASE_SETTINGS, safeguards: Object.fromEntries(SAFEGUARDS.map((name) => [name, false])) };
    for (const org of instance.orgs) await putReleaseSettings(instance.runtime.db, Number(org.organization_id), JSON.stringify(off), new Date().toISOString());
  }
  const pool = new WorkerPool();
  const harness: Harness = {
    instance,
    pool,
    runner: null,
    async startRunner() {
      if (harness.runner) return harness.runner;
      const runner = startExportRunner(instance.runtime, pool);
      await runner.started();
      harness.runner = runner;
      return runner;
    },
    async stopRunner() {
      await harness.runner?.stop();
      harness.runner = null;
    },
    async close() {
      await harness.stopRunner();
      await pool.destroy();
      await instance.close();
    },
  };
  if (options.runner !== false) await harness.startRunner();
  return harness;
}

/** A born-digital PDF of `pages` pages of dense text, and one box per page over the first line's first word. */
export async function textPagesPdf(pages: number): Promise<{ bytes: Buffer; box: Rect }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const words = 'records request memorandum department review schedule finance public office notice'.split(' ');
  for (let number = 0; number < pages; number += 1) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 45; line += 1) {
      draw(page, font, Array.from({ length: 11 }, (_, index) => words[(number + line * 3 + index) % words.length]).join(' '), 72, 720 - line * 14, 10);
    }
  }
  return { bytes: Buffer.from(await doc.save()), box: { x1: 70, y1: 715, x2: 130, y2: 732 } };
}

export interface LoadedCorpus {
  caseId: string;
  /** Document ids in upload order, matching corpus.documents. */
  documentIds: string[];
}

function boxItem(box: PlannedBox, type: CorpusDocument['type']): BoxItem {
  const units = type === 'pdf' ? 'pdf_points' : 'image_pixels';
  return {
    kind: box.kind,
    layer: box.layer,
    coordinates: box.points ? { page: box.page, units, points: box.points } : { page: box.page, units, box: box.rect },
    reason: box.reason ?? null,
    ...(box.classification && { classification_type: box.classification }),
    ...(box.review !== 'accepted' && { state: 'pending' }),
    ...(box.pendingReason && { pending_reason: box.pendingReason }),
  };
}

/** Uploads the corpus into a new case, stores its OCR words, and draws and reviews its boxes through the API. */
export async function loadCorpus(instance: TestInstance, corpus: Corpus, name = 'Leak corpus'): Promise<LoadedCorpus> {
  const caseId = await createCase(instance, name);
  const uploaded = await uploadDocuments(instance, caseId, corpus.documents.map((document) => ({ name: document.name, bytes: document.bytes })));
  const documentIds = uploaded.map((document) => document.id);
  const organizationId = Number(instance.orgs[0]?.organization_id);
  for (const [index, document] of corpus.documents.entries()) {
    const id = documentIds[index] ?? '';
    await storePages(instance, organizationId, id, document.stored);
    const created = await createBoxes(instance, id, document.boxes.map((box) => boxItem(box, document.type)));
    const decisions = document.boxes.flatMap((box, position) =>
      box.review === 'review-accept' || box.review === 'review-reject'
        ? [{ redaction_id: created[position]?.id ?? '', decision: box.review === 'review-accept' ? 'accept' : 'reject', reason: 'second reviewer' }]
        : [],
    );
    if (decisions.length > 0) {
      const response = await instance.request({ method: 'POST', url: `/api/v1/documents/${id}/review-decisions`, body: { decisions } });
      if (response.statusCode !== 201) throw new Error(`review decisions failed: ${response.statusCode} ${response.body}`);
    }
  }
  return { caseId, documentIds };
}

export async function requestExport(instance: TestInstance, body: Record<string, unknown>, key?: string): Promise<Export> {
  return dataOf(await instance.request({ method: 'POST', url: '/api/v1/exports', body, ...(key && { key }) }), Export, 202);
}

export async function readExport(instance: TestInstance, id: string): Promise<Export> {
  return dataOf(await instance.request({ method: 'GET', url: `/api/v1/exports/${id}` }), Export);
}

/** Polls until the export reaches one of `statuses`. */
export async function waitForExport(instance: TestInstance, id: string, statuses: readonly string[] = ['completed', 'failed', 'cancelled'], timeoutMs = 180_000): Promise<Export> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await readExport(instance, id);
    if (statuses.includes(current.status)) return current;
    if (Date.now() > deadline) throw new Error(`export ${id} still ${current.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Fetches a fresh download URL and the file behind it. */
export async function downloadExport(instance: TestInstance, id: string): Promise<{ bytes: Buffer; headers: Record<string, unknown> }> {
  const link = dataOf(await instance.request({ method: 'GET', url: `/api/v1/exports/${id}/download-url` }), DownloadUrl);
  const response = await getUrl(instance, link.url);
  if (response.statusCode !== 200) throw new Error(`download failed: ${response.statusCode} ${response.body}`);
  return { bytes: response.rawPayload, headers: response.headers };
}

/** Exports a corpus end to end and returns the file. */
export async function exportFile(instance: TestInstance, body: Record<string, unknown>): Promise<{ exported: Export; bytes: Buffer }> {
  const queued = await requestExport(instance, body);
  const exported = await waitForExport(instance, queued.id);
  if (exported.status !== 'completed') throw new Error(`export ${exported.id} ${exported.status}: ${exported.error_message ?? ''}`);
  return { exported, bytes: (await downloadExport(instance, exported.id)).bytes };
}


