import fs from 'node:fs';

// pdf.js's own data files (standard fonts, CMaps, wasm decoders), read once per thread. pdf.js asks for them
// again for every document it opens (a standard font for each file that uses Helvetica), through an awaited read
// on libuv's pool that the whole process shares; these files are part of the installed package and never change.

const files = new Map<string, Uint8Array>();

/** A data file of the package by its file name; the name comes from the PDF (a CMap's), so no path is taken. */
function packageFile(baseUrl: string | null, name: string, what: string): Uint8Array {
  if (!baseUrl) throw new Error(`pdf.js asked for ${what} without a directory for it`);
  if (!/^[\w.+-]+$/.test(name) || name.includes('..')) throw new Error(`pdf.js asked for ${what} named "${name}", which is no file name`);
  const file = `${baseUrl}${name}`;
  let bytes = files.get(file);
  if (!bytes) {
    bytes = new Uint8Array(fs.readFileSync(file));
    files.set(file, bytes);
  }
  // pdf.js may transfer what it is given (and so detach it): a copy each time.
  return bytes.slice();
}

export class StandardFontData {
  private readonly baseUrl: string | null;
  constructor({ baseUrl = null }: { baseUrl?: string | null }) {
    this.baseUrl = baseUrl;
  }
  async fetch({ filename }: { filename: string }): Promise<Uint8Array> {
    return packageFile(this.baseUrl, filename, 'a standard font');
  }
}

export class CMapData {
  private readonly baseUrl: string | null;
  private readonly isCompressed: boolean;
  constructor({ baseUrl = null, isCompressed = true }: { baseUrl?: string | null; isCompressed?: boolean }) {
    this.baseUrl = baseUrl;
    this.isCompressed = isCompressed;
  }
  async fetch({ name }: { name: string }): Promise<{ cMapData: Uint8Array; isCompressed: boolean }> {
    try {
      return { cMapData: packageFile(this.baseUrl, `${name}${this.isCompressed ? '.bcmap' : ''}`, 'a CMap'), isCompressed: this.isCompressed };
    } catch {
      // pdf.js's own wording, which its callers expect.
      throw new Error(`Unable to load ${this.isCompressed ? 'binary ' : ''}CMap at: ${this.baseUrl ?? ''}${name}`);
    }
  }
}

export class WasmData {
  private readonly baseUrl: string | null;
  constructor({ baseUrl = null }: { baseUrl?: string | null }) {
    this.baseUrl = baseUrl;
  }
  async fetch({ filename }: { filename: string }): Promise<Uint8Array> {
    return packageFile(this.baseUrl, filename, 'a wasm decoder');
  }
}

/** How many data files this thread holds (tests). */
export function heldDataFiles(): number {
  return files.size;
}
