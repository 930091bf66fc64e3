import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// PDFs made at run time by real producers installed from Debian (pdfTeX, Chromium, LibreOffice, Ghostscript,
// qpdf), for the release-fidelity bench and the fidelity tests. Every function returns the PDF's bytes.

function scratch(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function inDir<T>(prefix: string, work: (dir: string) => T): T {
  const dir = scratch(prefix);
  try {
    return work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function segment(marker: number, payload: Buffer): Buffer {
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** A minimal little-endian EXIF block: IFD0 with ImageDescription and a GPS IFD with GPSLatitudeRef. */
function exifPayload(description: string): Buffer {
  const text = Buffer.from(`${description}\0`, 'latin1');
  const tiff = Buffer.alloc(8 + 2 + 2 * 12 + 4 + 2 + 12 + 4);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(2, 8);
  const gpsOffset = 8 + 2 + 2 * 12 + 4;
  const textOffset = tiff.length;
  // ImageDescription (0x010E), ASCII, count, offset
  tiff.writeUInt16LE(0x010e, 10);
  tiff.writeUInt16LE(2, 12);
  tiff.writeUInt32LE(text.length, 14);
  tiff.writeUInt32LE(textOffset, 18);
  // GPSInfo (0x8825), LONG, 1, offset of the GPS IFD
  tiff.writeUInt16LE(0x8825, 22);
  tiff.writeUInt16LE(4, 24);
  tiff.writeUInt32LE(1, 26);
  tiff.writeUInt32LE(gpsOffset, 30);
  tiff.writeUInt32LE(0, 34);
  tiff.writeUInt16LE(1, gpsOffset);
  // GPSLatitudeRef (1), ASCII, 2, "N\0" inline
  tiff.writeUInt16LE(1, gpsOffset + 2);
  tiff.writeUInt16LE(2, gpsOffset + 4);
  tiff.writeUInt32LE(2, gpsOffset + 6);
  tiff.write('N\0', gpsOffset + 10, 'latin1');
  tiff.writeUInt32LE(0, gpsOffset + 14);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff, text]);
}

/** Strings a JPEG made by photoWithMetadata carries in its metadata segments, one per kind. */
export const PHOTO_METADATA = { exif: 'ExifSecretDescription', xmp: 'XmpSecretCreator', photoshop: 'IptcSecretCaption', comment: 'ComSecretNote' };

/** A JPEG photo (gradient) with EXIF + GPS, XMP, Photoshop/IPTC and a comment, inserted after APP0 (JFIF). */
export async function photoWithMetadata(): Promise<Buffer> {
  const canvas = createCanvas(160, 120);
  const context = canvas.getContext('2d');
  const gradient = context.createLinearGradient(0, 0, 160, 120);
  gradient.addColorStop(0, '#3a6ea5');
  gradient.addColorStop(1, '#e8c170');
  context.fillStyle = gradient;
  context.fillRect(0, 0, 160, 120);
  const jpeg = Buffer.from(await canvas.encode('jpeg', 85));
  // After SOI and, when present, APP0 (JFIF).
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at = 4 + jpeg.readUInt16BE(4);
  const xmp = `http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${PHOTO_METADATA.xmp}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`;
  const caption = Buffer.from(PHOTO_METADATA.photoshop, 'latin1');
  const iptc = Buffer.concat([Buffer.from([0x1c, 0x02, 0x78, 0, caption.length]), caption]);
  const resource = Buffer.concat([Buffer.from('8BIM', 'latin1'), Buffer.from([0x04, 0x04, 0, 0]), Buffer.from([0, 0, 0, iptc.length]), iptc, iptc.length % 2 ? Buffer.from([0]) : Buffer.alloc(0)]);
  return Buffer.concat([
    jpeg.subarray(0, at),
    segment(0xe1, exifPayload(PHOTO_METADATA.exif)),
    segment(0xe1, Buffer.from(xmp, 'utf8')),
    segment(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource])),
    segment(0xfe, Buffer.from(PHOTO_METADATA.comment, 'latin1')),
    jpeg.subarray(at),
  ]);
}

/** What a figure made by figurePdf says in its Info dictionary (pdfTeX copies it to /PTEX.InfoDict). */
export const FIGURE_INFO = { author: 'FigureSecretAuthor', title: 'FigureSecretTitle' };

/** A one-page PDF figure (a framed square) whose Info names an author and a title. */
export async function figurePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setAuthor(FIGURE_INFO.author);
  doc.setTitle(FIGURE_INFO.title);
  const page = doc.addPage([144, 144]);
  page.drawRectangle({ x: 12, y: 12, width: 120, height: 120, borderWidth: 3 });
  page.drawText('Fig', { x: 50, y: 64, size: 20, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

/** pdfTeX: LaTeX source compiled twice-free (one run), with the given files beside it. */
export function pdftex(source: string, files: Record<string, Buffer> = {}): Buffer {
  return inDir('obscura-pdftex-', (dir) => {
    for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), bytes);
    fs.writeFileSync(path.join(dir, 'doc.tex'), source);
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, stdio: 'pipe', timeout: 120_000 });
    return fs.readFileSync(path.join(dir, 'doc.pdf'));
  });
}

/** A pdfTeX report with an included PDF figure and an included JPEG photo, both carrying metadata. */
export async function pdftexWithFigures(lines: readonly string[]): Promise<Buffer> {
  const body = lines.map((line) => `${line}\n\n`).join('');
  return pdftex(
    `\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n${body}\\includegraphics[width=2in]{figure.pdf}\n\n\\includegraphics[width=2in]{photo.jpg}\n\\end{document}\n`,
    { 'figure.pdf': await figurePdf(), 'photo.jpg': await photoWithMetadata() },
  );
}

/** Chromium's page.pdf() of an HTML document (playwright-core driving Debian's Chromium). */
export async function chromiumPdf(html: string): Promise<Buffer> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    return Buffer.from(await page.pdf({ format: 'A4', printBackground: true }));
  } finally {
    await browser.close();
  }
}

/** LibreOffice Writer: a text document converted with soffice --headless --convert-to pdf. */
export function libreOfficePdf(text: string): Buffer {
  return inDir('obscura-soffice-', (dir) => {
    fs.writeFileSync(path.join(dir, 'doc.txt'), text);
    execFileSync('soffice', [`-env:UserInstallation=file://${path.join(dir, 'profile')}`, '--headless', '--convert-to', 'pdf:writer_pdf_Export', '--outdir', dir, path.join(dir, 'doc.txt')], { stdio: 'pipe', timeout: 180_000 });
    return fs.readFileSync(path.join(dir, 'doc.pdf'));
  });
}

/** Ghostscript ps2pdf of a PostScript program. */
export function ps2pdf(postscript: string): Buffer {
  return inDir('obscura-ps2pdf-', (dir) => {
    fs.writeFileSync(path.join(dir, 'doc.ps'), postscript);
    execFileSync('ps2pdf', ['doc.ps', 'doc.pdf'], { cwd: dir, stdio: 'pipe', timeout: 120_000 });
    return fs.readFileSync(path.join(dir, 'doc.pdf'));
  });
}

/** A PostScript page of Times lines, one per string, from the top of a Letter page. */
export function postscriptLines(lines: readonly string[]): string {
  const escaped = lines.map((line) => line.replace(/[()\\]/g, (char) => `\\${char}`));
  return `%!PS\n/Times-Roman findfont 12 scalefont setfont\n${escaped.map((line, index) => `72 ${720 - index * 16} moveto (${line}) show`).join('\n')}\nshowpage\n`;
}

/** qpdf: the same PDF encrypted with AES-256, an owner password and no user password. */
export function qpdfEncrypted(bytes: Buffer): Buffer {
  return inDir('obscura-qpdf-', (dir) => {
    fs.writeFileSync(path.join(dir, 'in.pdf'), bytes);
    execFileSync('qpdf', ['--encrypt', '', 'owner-secret', '256', '--', 'in.pdf', 'out.pdf'], { cwd: dir, stdio: 'pipe' });
    return fs.readFileSync(path.join(dir, 'out.pdf'));
  });
}
