import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { Export } from '../../main/common/schemas/exports.js';
import { ReleaseCheck, Withholding } from '../../main/common/schemas/releases.js';
import type { Scope } from '../../main/common/scopes.js';
import { type TestInstance } from './instance.js';
import { tempDir } from './temp.js';
import { dataOf } from './integration-support.js';
import { keyWithScopes } from './v1-redactions-support.js';

// Release packages read back with independent tools: unzip for the archive, pdftotext and qpdf for its PDFs.

/** Every file of a zip, extracted by Info-ZIP's unzip (not the library that wrote it). */
export function unzipAll(bytes: Buffer): Map<string, Buffer> {
  const dir = tempDir('obscura-unzip-');
  try {
    const zip = path.join(dir, 'package.zip');
    fs.writeFileSync(zip, bytes);
    const listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const out = path.join(dir, 'out');
    execFileSync('unzip', ['-q', zip, '-d', out]);
    return new Map(listing.filter((name) => !name.endsWith('/')).map((name) => [name, fs.readFileSync(path.join(out, name))]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A born-digital PDF whose pages each show their own lines of text (Helvetica 12 pt from y = 700 down). */
export async function pagesPdf(pages: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, index) => page.drawText(line, { x: 72, y: 700 - index * 20, size: 12, font }));
  }
  return Buffer.from(await doc.save());
}

/** RFC 4180 parser for the test's own reading of a CSV (quotes, doubled quotes, CRLF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

export async function caseAction(instance: TestInstance, caseId: string, action: string, key?: string): Promise<void> {
  const response = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action }, ...(key && { key }) });
  if (response.statusCode !== 200) throw new Error(`case action ${action} failed: ${response.statusCode} ${response.body}`);
}

/** start, submit and approve the case, as `key` (the approver). */
export async function approveCase(instance: TestInstance, caseId: string, key?: string): Promise<void> {
  for (const action of ['start', 'submit', 'approve']) await caseAction(instance, caseId, action, key);
}

/**
 * start, submit and approve the case as `key` while the organization has separation of duties turned off (the
 * workflow refuses the approval otherwise), then turn it back on: an approval given under an earlier policy,
 * which the release safeguard still catches. The settings are changed by the organization's admin key.
 */
export async function approveWithSeparationOff(instance: TestInstance, caseId: string, key?: string): Promise<void> {
  const setSeparation = async (on: boolean) => {
    const response = await instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { safeguards: { separation_of_duties: on } } });
    if (response.statusCode !== 200) throw new Error(`release settings: ${response.statusCode} ${response.body}`);
  };
  await setSeparation(false);
  try {
    await approveCase(instance, caseId, key);
  } finally {
    await setSeparation(true);
  }
}

export async function withhold(instance: TestInstance, caseId: string, body: Record<string, unknown>, key?: string): Promise<Withholding> {
  return dataOf(await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/withholdings`, body, ...(key && { key }) }), Withholding, 201);
}

export async function releaseCheck(instance: TestInstance, caseId: string): Promise<ReleaseCheck> {
  return dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/release-check` }), ReleaseCheck);
}

/** A second principal of the organization (a key of its service account) that draws the redactions. */
export function drawerKey(instance: TestInstance, scopes: readonly Scope[] = ['cases:read', 'cases:write', 'documents:read', 'documents:write', 'redactions:read', 'redactions:write', 'comments:write', 'exports:read', 'exports:write']): Promise<string> {
  return keyWithScopes(instance, scopes);
}

export async function postExport(instance: TestInstance, body: Record<string, unknown>, key?: string) {
  return instance.request({ method: 'POST', url: '/api/v1/exports', body, ...(key && { key }) });
}

export function exportOf(response: Awaited<ReturnType<typeof postExport>>): Export {
  return dataOf(response, Export, 202);
}

/** Words with their boxes (pdftotext -bbox, top-left origin in points) of one page. */
export function wordBoxes(bytes: Buffer, page: number): { word: string; xMin: number; yMin: number; xMax: number; yMax: number; pageHeight: number }[] {
  const dir = tempDir('obscura-bbox-');
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    const html = execFileSync('pdftotext', ['-q', '-bbox', '-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' });
    const height = Number(/<page width="[\d.]+" height="([\d.]+)"/.exec(html)?.[1] ?? 0);
    return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((match) => ({
      word: match[5] ?? '',
      xMin: Number(match[1]),
      yMin: Number(match[2]),
      xMax: Number(match[3]),
      yMax: Number(match[4]),
      pageHeight: height,
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
