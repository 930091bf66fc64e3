import { ZipFile } from 'yazl';
import { readZipEntries, readZipEntry, type ZipEntryInfo } from './zip.js';

// Objects embedded in an ODF file (a spreadsheet inside a text document, say) live in the package as a
// sub-folder, "Object 1/", with its own content.xml, styles.xml and, nested, its own objects; the manifest
// gives its media type. Each such text, spreadsheet, presentation or drawing object is packed again as a
// standalone ODF file to become a child document. Charts and formulas are left out: they are drawn in the
// converted parent and carry no document of their own (a chart reads its parent's cells).

const TAKEN: Record<string, string> = {
  'application/vnd.oasis.opendocument.text': '.odt',
  'application/vnd.oasis.opendocument.spreadsheet': '.ods',
  'application/vnd.oasis.opendocument.presentation': '.odp',
  'application/vnd.oasis.opendocument.graphics': '.odg',
};

interface ManifestEntry {
  fullPath: string;
  mediaType: string;
}

function unescapeXml(value: string): string {
  return value.replace(/&(quot|apos|lt|gt|amp);/g, (_, name: string) => ({ quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' })[name] ?? '');
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] ?? char);
}

function manifestEntries(xml: string): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  for (const match of xml.matchAll(/<manifest:file-entry\b([^>]*?)\/?>/g)) {
    const attributes = match[1] ?? '';
    const fullPath = /manifest:full-path="([^"]*)"/.exec(attributes)?.[1];
    const mediaType = /manifest:media-type="([^"]*)"/.exec(attributes)?.[1];
    if (fullPath !== undefined) entries.push({ fullPath: unescapeXml(fullPath), mediaType: unescapeXml(mediaType ?? '') });
  }
  return entries;
}

function pack(files: { name: string; bytes: Buffer; store?: boolean }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const file of files) zip.addBuffer(file.bytes, file.name, { compress: !file.store });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** The package's top-level embedded office objects, each as a standalone ODF file named "Object N.ods" etc. */
export async function embeddedOdfObjects(file: string, entries: ZipEntryInfo[], maxBytes: number): Promise<{ name: string; bytes: Buffer }[]> {
  if (!entries.some((entry) => entry.name === 'META-INF/manifest.xml')) return [];
  const manifest = manifestEntries((await readZipEntry(file, 'META-INF/manifest.xml', 4 * 1024 * 1024)).toString('utf8'));
  const objects = manifest.filter((entry) => /^[^/]+\/$/.test(entry.fullPath) && entry.fullPath !== 'META-INF/' && TAKEN[entry.mediaType]);
  const out: { name: string; bytes: Buffer }[] = [];
  for (const object of objects) {
    const prefix = object.fullPath;
    const names = new Set(entries.filter((entry) => entry.name.startsWith(prefix) && !entry.name.endsWith('/')).map((entry) => entry.name));
    if (!names.has(`${prefix}content.xml`)) continue;
    const parts = await readZipEntries(file, names, maxBytes);
    // Its own manifest: the object's entries with the folder taken off their paths, the object as the root.
    const inner = manifest
      .filter((entry) => entry.fullPath.startsWith(prefix) && entry.fullPath !== prefix)
      .map((entry) => ` <manifest:file-entry manifest:full-path="${escapeXml(entry.fullPath.slice(prefix.length))}" manifest:media-type="${escapeXml(entry.mediaType)}"/>`);
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">\n <manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="${escapeXml(object.mediaType)}"/>\n${inner.join('\n')}\n</manifest:manifest>\n`;
    const bytes = await pack([
      { name: 'mimetype', bytes: Buffer.from(object.mediaType), store: true },
      ...[...parts].map(([name, data]) => ({ name: name.slice(prefix.length), bytes: data })),
      { name: 'META-INF/manifest.xml', bytes: Buffer.from(xml) },
    ]);
    out.push({ name: `${prefix.slice(0, -1)}${TAKEN[object.mediaType]}`.replace(/^\.?\/*/, ''), bytes });
  }
  return out;
}
