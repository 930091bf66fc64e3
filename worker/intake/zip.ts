import yauzl from 'yauzl';

export interface ZipEntryInfo {
  name: string;
  compressed: number;
  uncompressed: number;
}

/** The central directory: names and sizes, nothing unpacked. */
export function listZip(file: string): Promise<ZipEntryInfo[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('unreadable zip'));
      const entries: ZipEntryInfo[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({ name: entry.fileName, compressed: entry.compressedSize, uncompressed: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/**
 * The named entries unpacked in one pass; more than `maxBytes` in all (whatever the directory claims) is
 * refused. Directory entries and names not asked for are skipped.
 */
export function readZipEntries(file: string, names: ReadonlySet<string>, maxBytes: number): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('unreadable zip'));
      const found = new Map<string, Buffer>();
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!names.has(entry.fileName) || entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > maxBytes) stream.destroy(new Error(`the package's parts unpack to more than ${maxBytes} bytes`));
            else chunks.push(chunk);
          });
          stream.on('end', () => {
            found.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
          stream.on('error', (streamFailure) => {
            zip.close();
            reject(streamFailure);
          });
        });
      });
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** One entry, or an error naming it when the package lacks it. */
export async function readZipEntry(file: string, name: string, maxBytes: number): Promise<Buffer> {
  const bytes = (await readZipEntries(file, new Set([name]), maxBytes)).get(name);
  if (!bytes) throw new Error(`${name} not found`);
  return bytes;
}
