import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fsyncDirectory, fsyncFile } from '../../services/durable-files.js';
import { FAILED_DIR, PROCESSED_DIR } from '../../services/watched-folders.js';
import type { FileStat } from './stability.js';

// Everything a watched folder writes outside the data directory: release files, the moved sources and the
// error notes. Each file is written under a temporary name in its final directory, fsynced, then renamed,
// so a reader (or a crash) only ever sees a whole file or none.

/** The temporary name a file is written under; a dotfile, so watchers (ours included) ignore it. */
function temporaryName(target: string, tag: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${tag}.tmp`);
}

async function writeAtomically(target: string, tag: string, write: (temp: string) => Promise<void>): Promise<void> {
  const dir = path.dirname(target);
  await fsp.mkdir(dir, { recursive: true });
  const temp = temporaryName(target, tag);
  try {
    await write(temp);
    await fsyncFile(temp);
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
  await fsyncDirectory(dir);
}

/** Copies stored bytes (a blob) to `target`; a repeated call replaces the file with the same bytes. */
export function copyAtomically(source: string, target: string, tag: string): Promise<void> {
  return writeAtomically(target, tag, (temp) => pipeline(fs.createReadStream(source), fs.createWriteStream(temp, { mode: 0o644 })));
}

export function writeTextAtomically(target: string, text: string, tag: string): Promise<void> {
  return writeAtomically(target, tag, (temp) => fsp.writeFile(temp, text, { mode: 0o644 }));
}

/**
 * `stem + suffix`, or `stem (2) + suffix`, `stem (3) + suffix`… when the name is taken on disk or reserved
 * (`reserved`: chosen for another file not written yet). The caller records the choice before writing, so a
 * repeat after a crash writes to the same path.
 */
export async function freePath(dir: string, stem: string, suffix: string, reserved: (candidate: string) => Promise<boolean> = async () => false): Promise<string> {
  for (let n = 1; ; n += 1) {
    const candidate = path.join(dir, `${stem}${n === 1 ? '' : ` (${n})`}${suffix}`);
    if (!pathTaken(candidate) && !(await reserved(candidate))) return candidate;
  }
}

function pathTaken(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}

function splitName(name: string): { stem: string; ext: string } {
  const ext = path.extname(name);
  return { stem: ext ? name.slice(0, -ext.length) : name, ext };
}

/** YYYY-MM-DD in the machine's time zone: the day people look for in processed/. */
export function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `root/<top>/<relative>`, with a free name in the file's directory there. */
function underRoot(root: string, top: string, relative: string): Promise<string> {
  const segments = relative.split('/');
  const { stem, ext } = splitName(segments.pop() ?? relative);
  return freePath(path.join(root, top, ...segments), stem, ext);
}

export function processedPath(root: string, relative: string, date: Date): Promise<string> {
  return underRoot(root, path.join(PROCESSED_DIR, localDate(date)), relative);
}

export function failedPath(root: string, relative: string): Promise<string> {
  return underRoot(root, FAILED_DIR, relative);
}

/** The release file's name: the source's, marked by what it is, in the source's sub-folder. */
export function outputPath(outputDir: string, relative: string, format: string, reserved: (candidate: string) => Promise<boolean>): Promise<string> {
  const segments = relative.split('/');
  const { stem } = splitName(segments.pop() ?? relative);
  const suffix = format === 'csv' || format === 'json' ? `.redactions.${format}` : `.redacted.${format}`;
  return freePath(path.join(outputDir, ...segments), stem, suffix, reserved);
}

export type SourceCheck = 'ours' | 'missing' | 'replaced';

/** Whether the file at the source path is still the one that was taken (same size and mtime). */
export async function checkSource(source: string, taken: FileStat): Promise<SourceCheck> {
  const stat = await fsp.lstat(source).catch(() => undefined);
  if (!stat) return 'missing';
  return stat.isFile() && stat.size === taken.size && stat.mtimeMs === taken.mtimeMs ? 'ours' : 'replaced';
}

/**
 * Moves the source to `target` (recorded beforehand). After a crash between the rename and its record the
 * source is gone and the target there: that counts as moved.
 */
export async function moveSource(source: string, target: string, taken: FileStat): Promise<'moved' | 'missing' | 'replaced'> {
  const check = await checkSource(source, taken);
  if (check === 'missing') return fs.existsSync(target) ? 'moved' : 'missing';
  if (check === 'replaced') return fs.existsSync(target) ? 'moved' : 'replaced';
  await fsp.mkdir(path.dirname(target), { recursive: true });
  await fsp.rename(source, target);
  await fsyncDirectory(path.dirname(target));
  return 'moved';
}

export async function deleteSource(source: string, taken: FileStat): Promise<void> {
  if ((await checkSource(source, taken)) === 'ours') await fsp.rm(source, { force: true });
}
