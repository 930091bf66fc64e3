import { PDFDocument } from 'pdf-lib';
import yauzl from 'yauzl';
import { openPdf } from '../burn-in/pdfjs.js';
import { checkObjects, fileText, MIN_OBJECT_NEEDLE, type Leak } from './search.js';
import { countIn, fold, occurrences } from './strings.js';
import { READ_WHOLE } from '../pdf-lib-load.js';

// The same search over a release package: every entry (the withholding index as PDF and CSV, the cover letter,
// the manifest, and the released PDFs) is read back from the zip and searched for every withheld text.

/** The largest entry read back (the package's own files; a release PDF larger than this is not re-read here). */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;

function entries(zip: Uint8Array): Promise<{ name: string; bytes: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(zip), { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('the package cannot be read'));
      const out: { name: string; bytes: Buffer }[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/') || entry.uncompressedSize > MAX_ENTRY_BYTES) return file.readEntry();
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error(`the package entry ${entry.fileName} cannot be read`));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            out.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

/**
 * Searches every entry of a release zip for each withheld text (folded) → its allowance in the whole release (how
 * often the released pages show it). Entries that are PDFs are read by pdf.js and object by object.
 */
export async function searchZip(zip: Uint8Array, given: ReadonlyMap<string, number>, released: readonly string[] = []): Promise<Leak[]> {
  const needles = [...given.keys()].filter((text) => text.length >= MIN_OBJECT_NEEDLE);
  if (needles.length === 0) return [];
  const leaks: Leak[] = [];
  const all = await entries(zip);
  // The released PDFs were each checked on their own: what they show (any of them) is allowed in the package's
  // other files too, and they are not searched again.
  const withheld = new Map(given);
  for (const entry of all.filter((item) => released.includes(item.name))) {
    const document = await openPdf(entry.bytes);
    try {
      const pages = await fileText(document);
      for (const needle of needles) withheld.set(needle, (withheld.get(needle) ?? 0) + countIn(pages, needle));
    } finally {
      await document.destroy();
    }
  }
  for (const [index, entry] of all.entries()) {
    if (released.includes(entry.name)) continue;
    // A file's name is read too: a document titled after the person withheld would tell. Such an entry is
    // named by its position in messages, never by its name.
    const title = fold(entry.name);
    const name = needles.some((needle) => title.includes(needle)) ? `package entry ${index + 1}` : entry.name;
    if (needles.some((needle) => occurrences(title, needle) > (withheld.get(needle) ?? 0))) leaks.push({ page: null, place: 'zip-entry', entry: `${name} (its file name)` });
    if (entry.bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
      const document = await openPdf(entry.bytes);
      try {
        const tokens = await fileText(document);
        const places = new Set<string>();
        for (const needle of needles) if (countIn(tokens, needle) > (withheld.get(needle) ?? 0)) places.add('page-text');
        const parsed = await PDFDocument.load(entry.bytes, { ...READ_WHOLE, updateMetadata: false, ignoreEncryption: true });
        const extra = new Map(needles.map((needle) => [needle, withheld.get(needle) ?? 0]));
        for (const leak of checkObjects(parsed.context, entry.bytes, needles, [], extra)) places.add(leak.place);
        for (const place of places) leaks.push({ page: null, place: place as Leak['place'], entry: name });
      } finally {
        await document.destroy();
      }
      continue;
    }
    const texts = textReadings(entry.bytes).map(fold);
    if (needles.some((needle) => Math.max(...texts.map((text) => occurrences(text, needle))) > (withheld.get(needle) ?? 0))) leaks.push({ page: null, place: 'zip-entry', entry: name });
  }
  return leaks;
}

/** A text entry as UTF-8, as UTF-16 when it starts with a byte order mark, and with JSON's \u escapes decoded. */
function textReadings(bytes: Buffer): string[] {
  const texts = [bytes.toString('utf8')];
  if (bytes[0] === 0xff && bytes[1] === 0xfe) texts.push(bytes.subarray(2).toString('utf16le'));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) texts.push(Buffer.from(bytes.subarray(2)).swap16().toString('utf16le'));
  for (const text of [...texts]) {
    if (text.includes('\\u')) texts.push(text.replace(/\\u([0-9a-fA-F]{4})/gu, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
  }
  return texts;
}
