import fs from 'node:fs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PageReadings, readAnew, type PageReader } from '../pdf-glyphs/index.js';

// The source documents an export's burn opened on this thread, kept for the same export's verification on the
// same thread (issue 29: parse each source once per export): the document (its fonts parsed once), and the
// readings of each page the burn read (glyphs, pdf.js's text content) with the page's operator list. The
// readings are pdf.js's and the glyph reader's own, never the burn's conclusions: the check still draws every
// inference itself. The runner asks the pool for the burn's thread (main/jobs/pool.ts); on another thread the
// check reads the source anew, as before. Bounded: pages and documents by count, documents by idle time too.

/** Pages a thread keeps read at most; past it the oldest is let go (read again by the check if it needs it). */
export const MAX_KEPT_PAGES = 48;
/** Documents a thread keeps open at most (an export of many small files), the least recently used closed first. */
export const MAX_KEPT_DOCUMENTS = 6;
/** A document no task has used for this long is closed at the next task's start. */
export const KEPT_IDLE_MS = 60_000;

const IMAGES = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat, OPS.paintImageMaskXObjectRepeat]);

interface Entry {
  key: string;
  document: Promise<PDFDocumentProxy>;
  readings: PageReadings;
  users: number;
  usedAt: number;
}

const entries = new Map<string, Entry>();
/** Kept pages in the order they were kept, oldest first, with their entry. */
const keptPages = new Map<PDFPageProxy, Entry>();

/** An export's file as it is now: a file written anew under the same name is another source. */
function keyOf(exportId: number, path: string): string | null {
  try {
    const stat = fs.statSync(path);
    return `${exportId}\u0000${path}\u0000${stat.size}\u0000${stat.mtimeMs}\u0000${stat.ino}`;
  } catch {
    return null;
  }
}

/** A source document of an export in use by one task: `release` when the task is done with it. */
export interface KeptSource {
  document: Promise<PDFDocumentProxy>;
  /** Reads a page once for the burn and the check alike. */
  reader: PageReader & { holds?(page: PDFPageProxy): boolean };
  /**
   * Keeps a page the task is done with, for the check: its readings, and with `withList` its operator list
   * (display, annotations drawn) unless it paints an image (decoded pictures are the largest part of a page;
   * those pages are cleaned up, their readings kept).
   */
  keep(page: PDFPageProxy, withList: boolean): Promise<void>;
  /** Lets a page go: its readings dropped, pdf.js's caches of it cleaned up. */
  drop(page: PDFPageProxy): void;
  /** Done with the document; `close`: the export's check of it is done, so nothing need stay kept (unless in use). */
  release(close?: boolean): void;
}

function evictIdle(now: number): void {
  for (const entry of [...entries.values()]) {
    if (entry.users === 0 && now - entry.usedAt > KEPT_IDLE_MS) void close(entry);
  }
}

async function close(entry: Entry): Promise<void> {
  entries.delete(entry.key);
  for (const [page, owner] of [...keptPages]) if (owner === entry) keptPages.delete(page);
  await (await entry.document.catch(() => null))?.destroy();
}

function handle(entry: Entry): KeptSource {
  entry.users += 1;
  let released = false;
  return {
    document: entry.document,
    reader: entry.readings,
    async keep(page, withList) {
      // The list was built already (the burn read it): asking again gives pdf.js's cached one.
      const list = withList ? await page.getOperatorList({ intent: 'display', annotationMode: 1 }).catch(() => null) : null;
      if (!list || list.fnArray.some((fn) => IMAGES.has(fn))) page.cleanup();
      keptPages.delete(page);
      keptPages.set(page, entry);
      while (keptPages.size > MAX_KEPT_PAGES) {
        const [oldest, owner] = keptPages.entries().next().value as [PDFPageProxy, Entry];
        keptPages.delete(oldest);
        owner.readings.drop(oldest);
        oldest.cleanup();
      }
    },
    drop(page) {
      keptPages.delete(page);
      entry.readings.drop(page);
      page.cleanup();
    },
    release(closing = false) {
      if (released) return;
      released = true;
      entry.users -= 1;
      entry.usedAt = Date.now();
      if (closing && entry.users === 0 && entries.get(entry.key) === entry) void close(entry);
    },
  };
}

/** The export's source document at `path` on this thread, opened with `open` if no task kept it. */
export function openKept(exportId: number, path: string, open: () => Promise<PDFDocumentProxy>): KeptSource {
  const now = Date.now();
  evictIdle(now);
  const key = keyOf(exportId, path);
  if (key === null) return unkept(open);
  let entry = entries.get(key);
  if (!entry) {
    entry = { key, document: open(), readings: new PageReadings(readAnew), users: 0, usedAt: now };
    entries.set(key, entry);
    const unused = [...entries.values()].filter((other) => other.users === 0 && other !== entry).sort((a, b) => a.usedAt - b.usedAt);
    while (entries.size > MAX_KEPT_DOCUMENTS && unused.length > 0) void close(unused.shift() as Entry);
    // A document that failed to open is not kept: the next task tries again.
    const failed = entry;
    entry.document.catch(() => {
      if (entries.get(key) === failed) entries.delete(key);
    });
  }
  return handle(entry);
}

/** The export's source document at `path` if a task on this thread kept it; null else. */
export function findKept(exportId: number, path: string): KeptSource | null {
  evictIdle(Date.now());
  const key = keyOf(exportId, path);
  const entry = key === null ? undefined : entries.get(key);
  return entry ? handle(entry) : null;
}

/** A document not kept (its file could not be looked at): read anew, closed on release. */
function unkept(open: () => Promise<PDFDocumentProxy>): KeptSource {
  const document = open();
  return {
    document,
    reader: readAnew,
    keep: async (page) => void page.cleanup(),
    drop: (page) => void page.cleanup(),
    release: () => void document.then((opened) => opened.destroy()).catch(() => undefined),
  };
}

/** What this thread keeps (tests, benchmarks). */
export function keptState(): { documents: number; pages: number } {
  return { documents: entries.size, pages: keptPages.size };
}

/** Closes every kept document (tests). */
export async function closeAllKept(): Promise<void> {
  for (const entry of [...entries.values()]) await close(entry);
}
