import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Test utilities that touch no database (see database-reach.ts): temporary directories and a minimal PDF.

export function tempDir(prefix = 'obscura-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A small but real PDF (one page, one line of text), built by hand so tests need no PDF library. */
export function minimalPdf(text = 'Hello Obscura'): Buffer {
  return handWrittenPdf(`BT /F1 24 Tf 72 700 Td (${text.replace(/[()\\]/g, '\\$&')}) Tj ET`, { F1: 'Helvetica' });
}

/**
 * A one-page PDF written by hand as producers write it: `content` as the page's stream, `fonts` the standard 14
 * fonts (not embedded) under their resource names (pdf-lib would name its resources after the fonts).
 */
export function handWrittenPdf(content: string, fonts: Record<string, string>): Buffer {
  const names = Object.keys(fonts);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${names.map((name, index) => `/${name} ${5 + index} 0 R`).join(' ')} >> >> /Contents 4 0 R >>`,
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    ...names.map((name) => `<< /Type /Font /Subtype /Type1 /BaseFont /${fonts[name]} >>`),
  ];
  return pdfOfObjects(objects);
}

/** A PDF of the given objects (numbered from 1; the first is the catalog), with its cross-reference table. */
export function pdfOfObjects(objects: readonly string[]): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
