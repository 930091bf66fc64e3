import { createHash } from 'node:crypto';
import fs from 'node:fs';
import {
  concatTransformationMatrix,
  degrees,
  drawObject,
  PDFDocument,
  PDFName,
  PDFRef,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  StandardFonts,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import type { AssembleDocument, CertifyPlan, ReleaseLayoutPage, BurnedPage, CoverSheet, ExportAssembleResult, ExportAssembleTask, LayerWord, PageCheck, RasterizedPage, RewrittenPage } from '../../main/common/export-tasks.js';
import { burnPages, burnPdfPage, readSource } from './burn.js';
import { CannotCopyPage, prepareCopy } from './copy.js';
import { loadWritable } from './decrypt/index.js';
import { addLinks, readLinks, type SourceLink } from './links/index.js';
import { embedFlateImage } from './page-image/index.js';
import { openPdf } from './pdfjs.js';
import { sanitizeOutput } from './sanitize.js';
import { addTextLayer } from './text-layer/index.js';
import { addFormCopies } from './vector/forms.js';
import { addImageCopies } from './vector/images.js';
import { addLabelFont } from './vector/redact.js';
import { addPlaceholderPage } from '../release-package/placeholders.js';
import { stampPage, stampText } from '../release-package/stamps.js';
import { releasedPage, withheldPlan } from '../release-package/withheld.js';
import { renameFontsCarrying } from './font-names.js';
import { fold } from '../release-check/index.js';
import { WRITE_WHOLE } from '../pdf-lib-load.js';

// One output PDF from burned page images, copied pages and an optional cover sheet, written and verified.

function number(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

async function addBurnedPage(out: PDFDocument, burned: RasterizedPage): Promise<PDFPage> {
  const [x0, y0, x1, y1] = burned.box;
  const page = out.addPage([x1 - x0, y1 - y0]);
  page.setMediaBox(x0, y0, x1 - x0, y1 - y0);
  if (burned.rotate !== 0) page.setRotation(degrees(burned.rotate));
  const bytes = fs.readFileSync(burned.image.path);
  const [x, y, width, height] = burned.image.place;
  if (burned.image.encoding === 'jpeg') {
    page.drawImage(await out.embedJpg(bytes), { x, y, width, height });
  } else if (burned.image.encoding === 'flate') {
    const name = page.node.newXObject('Page', embedFlateImage(out, bytes, burned.image.width, burned.image.height));
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(width, 0, 0, height, x, y), drawObject(name), popGraphicsState());
  } else {
    const stream = out.context.stream(bytes, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: burned.image.width,
      Height: burned.image.height,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 1,
      Filter: 'CCITTFaxDecode',
      DecodeParms: { K: -1, Columns: burned.image.width, Rows: burned.image.height },
    });
    const name = page.node.newXObject('Page', out.context.register(stream));
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(width, 0, 0, height, x, y), drawObject(name), popGraphicsState());
  }
  addTextLayer(out, page, burned.words);
  return page;
}

function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return Array.from(text.normalize('NFKC'))
    .map((char) => (known.has(char.codePointAt(0) ?? 0) ? char : '?'))
    .join('');
}

function drawCover(out: PDFDocument, font: PDFFont, bold: PDFFont, cover: CoverSheet): void {
  const page = out.addPage([612, 792]);
  const line = (text: string, y: number, size = 12, face = font, x = 72) => page.drawText(printable(face, text), { x, y, size, font: face, color: rgb(0, 0, 0) });
  line('Records release', 700, 24, bold);
  const name = printable(font, cover.caseName);
  // Long names wrap at about 70 characters a line.
  const lines = name.match(/.{1,70}(\s|$)|\S+/g) ?? [name];
  let y = 660;
  for (const part of lines.slice(0, 4)) {
    line(part.trim(), y, 14, bold);
    y -= 20;
  }
  line(`Date: ${cover.date}`, y - 10);
  line(`Documents: ${cover.documents}`, y - 28);
  line(`Redactions: ${cover.redactions}`, y - 46);
  y -= 90;
  line('Redactions by exemption', y, 13, bold);
  y -= 22;
  if (cover.byExemption.length === 0) line('None', y);
  for (const row of cover.byExemption) {
    line(row.exemption, y, 12, bold);
    line(row.label, y, 12, font, 140);
    line(String(row.count), y, 12, font, 470);
    y -= 18;
  }
}

async function sha256Write(file: string, bytes: Uint8Array): Promise<string> {
  const handle = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeFileSync(handle, bytes);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  return createHash('sha256').update(bytes).digest('hex');
}

interface Placed {
  checks: PageCheck[];
  pages: number;
  layout: ReleaseLayoutPage[];
  /** Links left out because their URI repeats withheld text. */
  linksDropped?: number;
}

/**
 * A page redacted in its content: the source page cut down like any copy, with the rewritten content (written
 * Flate-compressed by the burn task) instead of its own, and the labels' font among its resources.
 */
async function prepareRewritten(source: PDFDocument, page: RewrittenPage): Promise<void> {
  const content = source.context.register(source.context.stream(fs.readFileSync(page.contentPath), { Filter: 'FlateDecode' }));
  // Copies of forms whose text was redacted, under the names the content draws them by (before the resources
  // are cut down to those names: the originals then stay behind).
  const forms = (page.forms ?? []).map((form) => ({ name: form.name, ref: PDFRef.of(form.object[0], form.object[1]), deflated: fs.readFileSync(form.contentPath) }));
  addFormCopies(source, page.page - 1, forms);
  // Images redacted in their pixels, likewise (their originals stay behind when no other name draws them).
  addImageCopies(source, page.page - 1, (page.images ?? []).map((image) => ({ name: image.name, ...(image.replaces && { replaces: image.replaces }), data: image.data, bytes: fs.readFileSync(image.contentPath) })));
  prepareCopy(source, page.page - 1, content);
  // prepareCopy made the page a resource dictionary of its own.
  const resources = source.getPage(page.page - 1).node.Resources();
  if (!resources) throw new Error('a rewritten page has no resources');
  // The rewritten content names no property list (BDC became BMC); none may travel, whatever a tag is called.
  resources.delete(PDFName.of('Properties'));
  if (page.labelFont) addLabelFont(source.context, resources, page.labelFont);
  if (page.textLayer) addTextLayer(source, source.getPage(page.page - 1), page.textLayer);
}

/** What verification compares a burned page with (fidelity/): its source page and the black drawn on it. */
function certifyPlan(entry: AssembleDocument, page: BurnedPage): CertifyPlan {
  const { documentId, path, documentType } = entry.source;
  return { documentId, sourcePath: path, sourceType: documentType, page: page.page, method: page.method, drawn: page.drawnAreas ?? [], fallback: page.method === 'raster' ? page.fallback : null };
}

/**
 * Adds one document's pages in order: rendered ones from their images, rewritten ones and the others copied
 * (or rendered when they cannot be copied).
 */
async function addDocument(out: PDFDocument, font: PDFFont, entry: AssembleDocument, task: ExportAssembleTask, firstPage: number): Promise<Placed> {
  const label = `document ${entry.source.documentId}`;
  const burned = new Map<number, BurnedPage>(entry.burned.map((page) => [page.page, page]));
  const checks: PageCheck[] = [];
  const layout: ReleaseLayoutPage[] = [];
  const check = (page: BurnedPage) => checks.push({ outputPage: firstPage + layout.length - 1, label: `${label} page ${page.page}`, words: page.words, withheld: page.withheld, certify: certifyPlan(entry, page), ...(page.method === 'vector' && page.labels && { added: page.labels }), ...(page.stored && { stored: page.stored }), ...(page.method === 'vector' && page.rewriting && { rewriting: page.rewriting }) });
  /** The output page of each released source page (links go to these). */
  const released = new Map<number, PDFPage>();
  const place = async (page: RasterizedPage) => {
    released.set(page.page, await addBurnedPage(out, page));
    layout.push(releasedPage(entry.source.documentId, page.page));
    check(page);
  };
  let bold: PDFFont | null = null;
  /** A withheld page: its placeholder (per page, or on a range's first page); nothing of the page is used. */
  const placeholder = (withheld: ReturnType<typeof withheldPlan>, number: number): boolean => {
    const page = withheld.get(number);
    if (!page) return false;
    if (page.placeholder) {
      bold ??= out.embedStandardFont(StandardFonts.HelveticaBold);
      addPlaceholderPage(out, font, bold, page.exemption, page.from, page.to);
      layout.push({ documentId: entry.source.documentId, from: page.from, to: page.to, withheld: page.exemption });
    }
    return true;
  };
  if (entry.source.documentType !== 'pdf') {
    // Images were burned whole (every page, boxes or not, but the withheld ones): their pixels are always rewritten.
    const pages = [...entry.burned].filter((page): page is RasterizedPage => page.method === 'raster').sort((a, b) => a.page - b.page);
    const withheld = withheldPlan(entry, entry.pageCount ?? pages.length);
    const byNumber = new Map(pages.map((page) => [page.page, page]));
    for (let number = 1; number <= (entry.pageCount ?? pages.length); number += 1) {
      if (placeholder(withheld, number)) continue;
      const page = byNumber.get(number);
      if (page) await place(page);
    }
    return { checks, pages: layout.length, layout };
  }
  const bytes = await readSource(entry.source);
  let source: PDFDocument | null = null;
  try {
    // Encrypted files through an unencrypted working copy (worker/burn-in/decrypt/).
    source = await loadWritable(bytes);
  } catch {
    source = null; // unreadable by pdf-lib (or encrypted with a password): every page is rendered by pdf.js instead
  }
  const pageCount = entry.pageCount ?? source?.getPageCount() ?? (await countPages(bytes));
  if (source && source.getPageCount() !== pageCount) source = null;
  const withheld = withheldPlan(entry, pageCount);
  const rewritten = entry.burned.filter((page): page is RewrittenPage => page.method === 'vector');
  if (rewritten.length > 0 && !source) throw new Error(`${label} was redacted in its content but pdf-lib cannot read it now`);
  const copies = new Map<number, number>();
  const links = new Map<number, SourceLink[]>();
  if (source) {
    for (let number = 1; number <= pageCount; number += 1) {
      if (withheld.has(number)) continue;
      try {
        // Read before prepareCopy cuts the page down; a link that cannot be read is left out.
        links.set(number, readLinks(source, number - 1));
      } catch {
        links.set(number, []);
      }
    }
    for (let number = 1; number <= pageCount; number += 1) {
      const page = burned.get(number);
      if (page?.method === 'raster' || withheld.has(number)) continue;
      try {
        if (page?.method === 'vector') await prepareRewritten(source, page);
        else prepareCopy(source, number - 1);
        copies.set(number, copies.size);
      } catch (error) {
        if (page?.method === 'vector') throw new Error(`${label} page ${number} cannot be assembled: ${error instanceof Error ? error.message : String(error)}`);
        if (!(error instanceof CannotCopyPage)) throw error;
      }
    }
  }
  const copied = source && copies.size > 0 ? await out.copyPages(source, [...copies.keys()].map((number) => number - 1)) : [];
  const missing = Array.from({ length: pageCount }, (_, index) => index + 1).filter((number) => !burned.has(number) && !copies.has(number) && !withheld.has(number));
  if (missing.length > 0) {
    // Pages that cannot be copied safely are rendered without boxes: what they show stays, nothing else.
    const rendered = await renderPlain(entry, missing, task);
    for (const page of rendered) burned.set(page.page, page);
  }
  for (let number = 1; number <= pageCount; number += 1) {
    if (placeholder(withheld, number)) continue;
    const page = burned.get(number);
    if (page?.method === 'raster') {
      await place(page);
      continue;
    }
    released.set(number, out.addPage(copied[copies.get(number) ?? -1] as PDFPage));
    layout.push(releasedPage(entry.source.documentId, number));
    if (page) check(page);
  }
  // Everything the document withholds, for its links' URIs (links/index.ts).
  const documentWithheld = [...new Set(entry.burned.flatMap((page) => page.withheld).map(fold))];
  let linksDropped = 0;
  for (const [number, page] of released) {
    const burnedPage = burned.get(number);
    // A burned page whose black is not known keeps no link.
    if (burnedPage && !burnedPage.drawnAreas) continue;
    const drawn = (burnedPage?.drawnAreas ?? []).map(([x1, y1, x2, y2]) => ({ x1, y1, x2, y2 }));
    linksDropped += addLinks(page, links.get(number) ?? [], drawn, (target) => released.get(target)?.ref ?? null, documentWithheld).dropped;
  }
  return { checks, pages: layout.length, layout, linksDropped };
}

async function countPages(bytes: Uint8Array): Promise<number> {
  const document = await openPdf(bytes);
  try {
    return document.numPages;
  } finally {
    await document.destroy();
  }
}

async function renderPlain(entry: AssembleDocument, pages: number[], task: ExportAssembleTask): Promise<RasterizedPage[]> {
  if (entry.source.documentType !== 'pdf') {
    const result = await burnPages({ kind: 'export-burn', exportId: task.exportId, source: entry.source, pages: [], allPages: true, settings: task.settings, workPrefix: task.workPrefix }, () => undefined);
    return result.pages.filter((page): page is RasterizedPage => page.method === 'raster');
  }
  const document = await openPdf(await readSource(entry.source));
  try {
    const rendered: RasterizedPage[] = [];
    for (const page of pages) {
      rendered.push(await burnPdfPage(document, { page, boxes: [], words: null }, task.settings, `${task.workPrefix}-d${entry.source.documentId}-p${page}-plain.img`));
    }
    return rendered;
  } finally {
    await document.destroy();
  }
}

/**
 * The export-assemble task: builds, sanitizes, saves and writes the file (a temp file of the blob store). The
 * runner then verifies it with export-verify tasks before anything is committed.
 */
export async function assemble(task: ExportAssembleTask, report: (fraction: number) => void): Promise<ExportAssembleResult> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const font = out.embedStandardFont(StandardFonts.Helvetica);
  let pages = 0;
  const checks: PageCheck[] = [];
  const layout: ReleaseLayoutPage[] = [];
  let linksDropped = 0;
  if (task.cover) {
    drawCover(out, font, out.embedStandardFont(StandardFonts.HelveticaBold), task.cover);
    pages += 1;
  }
  const firstDocumentPage = pages;
  for (const [index, entry] of task.documents.entries()) {
    const placed = await addDocument(out, font, entry, task, pages + 1);
    checks.push(...placed.checks);
    layout.push(...placed.layout);
    linksDropped += placed.linksDropped ?? 0;
    pages += placed.pages;
    report(((index + 1) / task.documents.length) * 0.8);
  }
  const stamps = task.stamps;
  if (stamps) {
    const stamped = new Map<number, string>();
    out.getPages().slice(firstDocumentPage).forEach((page, index) => {
      const text = stampText(stamps, stamps.start + index);
      stampPage(out, font, page, text, stamps);
      stamped.set(firstDocumentPage + index + 1, text);
    });
    for (const check of checks) {
      const stamp = stamped.get(check.outputPage);
      if (stamp !== undefined) check.stamp = stamp;
    }
  }
  // An embedded font named with a word the clerk boxed ("Roman" of TimesNewRomanPSMT) is renamed (font-names.ts).
  renameFontsCarrying(out.context, task.documents.flatMap((entry) => entry.burned.flatMap((page) => page.withheld)));
  sanitizeOutput(out.context);
  const bytes = await out.save({ ...WRITE_WHOLE, useObjectStreams: true, addDefaultPage: false });
  const sha256 = await sha256Write(task.outputPath, bytes);
  report(1);
  return { kind: 'export-assemble', sha256, size: bytes.length, pages, checks, layout, linksDropped };
}
