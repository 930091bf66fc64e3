import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { burn } from '@kenjiuno/msgreader/lib/Burner.js';
import { Reader, type CFolder } from '@kenjiuno/msgreader/lib/Reader.js';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { cachedFixture, programBuild } from './fixture-cache.js';
import { tempDir } from './temp.js';
import { writeCompoundFile, type Node } from './msg-writer.js';

// Office files written at test time by LibreOffice itself (soffice --headless, its own profile), and the bad
// Office inputs intake must refuse: a LibreOffice-encrypted ODT, an OLE EncryptedPackage .docx, an OOXML bomb.

// Made when first needed, and again after removeOfficeFixtures: unit files share one process (vitest.config.ts),
// so a file may convert after another file's afterAll removed the folder.
let folder: string | undefined;

function fixturesDir(): string {
  if (!folder || !fs.existsSync(folder)) folder = tempDir('obscura-office-fixtures-');
  return folder;
}

function profileDir(): string {
  return path.join(fixturesDir(), 'profile');
}

/** Removes the fixtures' folder and LibreOffice profile (call in afterAll). */
export function removeOfficeFixtures(): void {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
  folder = undefined;
}

/** LibreOffice's build and this file's making code: what a cached fixture depends on besides its inputs. */
let makers: string | undefined;
function officeFixture(kind: string, inputs: readonly unknown[], make: () => Buffer): Buffer {
  makers ??= programBuild('soffice', ['versionrc']) + fs.readFileSync(fileURLToPath(import.meta.url), 'utf8');
  return cachedFixture(`office-${kind}`, [makers, ...inputs], make);
}

function soffice(args: string[]): void {
  execFileSync('soffice', [`-env:UserInstallation=file://${profileDir()}`, '--headless', '--norestore', ...args], { stdio: 'ignore', timeout: 120_000 });
}

/** Writes `source` (a name with its extension) and has LibreOffice convert it to `format` (docx, xlsx, pptx, odt). */
export function libreOfficeFile(sourceName: string, content: string, format: string): Buffer {
  return officeFixture('convert', [sourceName, content, format], () => convertNow(sourceName, content, format));
}

function convertNow(sourceName: string, content: string, format: string): Buffer {
  const work = fs.mkdtempSync(path.join(fixturesDir(), 'convert-'));
  const source = path.join(work, sourceName);
  fs.writeFileSync(source, content);
  soffice(['--convert-to', format, '--outdir', work, source]);
  const out = path.join(work, `${path.parse(sourceName).name}.${format.split(':')[0]}`);
  return fs.readFileSync(out);
}

export const html = (title: string, ...paragraphs: string[]) => `<html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`;

/** A flat ODF presentation (one text frame per slide), for LibreOffice to write as .pptx. */
export function flatPresentation(slides: string[]): string {
  const pages = slides
    .map((text, index) => `<draw:page draw:name="s${index + 1}"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="4cm"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame></draw:page>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation"><office:body><office:presentation>${pages}</office:presentation></office:body></office:document>`;
}

// LibreOffice Basic macros the fixtures run in their own profile (soffice macro:///Standard.Module1.Name(...)).
const macros = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">
Sub SaveEncrypted(source As String, target As String, password As String)
  Dim load(0) As New com.sun.star.beans.PropertyValue
  load(0).Name = &quot;Hidden&quot;
  load(0).Value = True
  doc = StarDesktop.loadComponentFromURL(ConvertToURL(source), &quot;_blank&quot;, 0, load())
  Dim store(1) As New com.sun.star.beans.PropertyValue
  store(0).Name = &quot;FilterName&quot;
  store(0).Value = &quot;writer8&quot;
  store(1).Name = &quot;Password&quot;
  store(1).Value = password
  doc.storeToURL(ConvertToURL(target), store())
  doc.close(True)
End Sub

Sub EmbedSheet(target As String, filter As String, heading As String, cells As String)
  Dim load(0) As New com.sun.star.beans.PropertyValue
  load(0).Name = &quot;Hidden&quot;
  load(0).Value = True
  doc = StarDesktop.loadComponentFromURL(&quot;private:factory/swriter&quot;, &quot;_blank&quot;, 0, load())
  body = doc.getText()
  body.insertString(body.getEnd(), heading, False)
  obj = doc.createInstance(&quot;com.sun.star.text.TextEmbeddedObject&quot;)
  obj.CLSID = &quot;47BBB4CB-CE4C-4E80-A591-42D9AE74950F&quot;
  body.insertTextContent(body.getEnd(), obj, False)
  sheet = obj.getEmbeddedObject().getSheets().getByIndex(0)
  rows = Split(cells, &quot;;&quot;)
  For r = 0 To UBound(rows)
    fields = Split(rows(r), &quot;|&quot;)
    sheet.getCellByPosition(0, r).setString(fields(0))
    sheet.getCellByPosition(1, r).setValue(CDbl(fields(1)))
  Next r
  Dim store(0) As New com.sun.star.beans.PropertyValue
  store(0).Name = &quot;FilterName&quot;
  store(0).Value = filter
  doc.storeToURL(ConvertToURL(target), store())
  doc.close(True)
End Sub
</script:module>`;

/** The profile exists after a first conversion; its Standard library then gets the fixtures' macros. */
function installMacros(): void {
  if (!fs.existsSync(path.join(profileDir(), 'user', 'basic', 'Standard'))) convertNow('warm-up.txt', 'profile', 'odt');
  fs.writeFileSync(path.join(profileDir(), 'user', 'basic', 'Standard', 'Module1.xba'), macros);
}

/** A password-protected .odt saved by LibreOffice itself (a Basic macro in the fixture profile calls storeToURL with Password). */
export function encryptedOdt(content: string, password: string): Buffer {
  return officeFixture('encrypted-odt', [content, password], () => {
    const work = fs.mkdtempSync(path.join(fixturesDir(), 'encrypt-'));
    const source = path.join(work, 'plain.odt');
    fs.writeFileSync(source, libreOfficeFile('plain.html', content, 'odt:writer8'));
    installMacros();
    const target = path.join(work, 'locked.odt');
    soffice([`macro:///Standard.Module1.SaveEncrypted("${source}","${target}","${password}")`]);
    return fs.readFileSync(target);
  });
}

/**
 * A text document with a spreadsheet embedded as an OLE object (Writer inserts a Calc object, fills its cells,
 * and saves): as .odt the sheet is an "Object 1/" folder of the package, as .docx LibreOffice writes it to
 * word/embeddings/ as an .xlsx. `cells` are label/number rows.
 */
export function documentWithEmbeddedSheet(format: 'odt' | 'docx', heading: string, cells: [string, number][]): Buffer {
  return officeFixture('embedded-sheet', [format, heading, cells], () => {
    installMacros();
    const target = path.join(fs.mkdtempSync(path.join(fixturesDir(), 'embed-')), `memo.${format}`);
    const filter = format === 'odt' ? 'writer8' : 'MS Word 2007 XML';
    const data = cells.map(([label, value]) => `${label}|${value}`).join(';');
    soffice([`macro:///Standard.Module1.EmbedSheet("${target}","${filter}","${heading}","${data}")`]);
    return fs.readFileSync(target);
  });
}

/**
 * A password-protected OOXML file as Office writes it ([MS-OFFCRYPTO] 2.3.4.10, agile encryption): an OLE
 * compound file with an EncryptionInfo stream and the EncryptedPackage, here written by msgreader's burner.
 */
export function encryptedOoxml(): Buffer {
  const info = Buffer.concat([
    Buffer.from([0x04, 0x00, 0x04, 0x00, 0x40, 0x00, 0x00, 0x00]),
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><encryption xmlns="http://schemas.microsoft.com/office/2006/encryption"><keyData saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="' +
        randomBytes(16).toString('base64') +
        '"/></encryption>',
    ),
  ]);
  const packageBytes = Buffer.concat([Buffer.from([0x00, 0x10, 0, 0, 0, 0, 0, 0]), randomBytes(4096)]);
  const copy = (bytes: Buffer) => new Uint8Array(bytes);
  return Buffer.from(
    burn([
      { name: 'Root Entry', type: 5, children: [1, 2], length: 0 },
      { name: 'EncryptionInfo', type: 2, length: info.length, binaryProvider: () => copy(info) },
      { name: 'EncryptedPackage', type: 2, length: packageBytes.length, binaryProvider: () => copy(packageBytes) },
    ]),
  );
}

function zipEntries(bytes: Buffer): Promise<{ name: string; data: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('unreadable zip'));
      const entries: { name: string; data: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });
}

/** A real .docx with extra parts added (e.g. word/embeddings/…, where Word keeps embedded files), existing parts optionally edited. */
export async function withParts(docx: Buffer, parts: { name: string; bytes: Buffer }[], edit?: (name: string, data: Buffer) => Buffer): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of await zipEntries(docx)) zip.addBuffer(edit ? edit(entry.name, entry.data) : entry.data, entry.name);
  for (const part of parts) zip.addBuffer(part.bytes, part.name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A real .docx with one more part, `bombBytes` of zeros that deflate about 1000:1 (an archive bomb inside OOXML). */
export function ooxmlBomb(docx: Buffer, bombBytes: number): Promise<Buffer> {
  return withParts(docx, [{ name: 'word/media/filler.bin', bytes: Buffer.alloc(bombBytes) }]);
}

/**
 * An \x01Ole10Native stream as Office's Packager writes it (little endian): u32 size of the rest; u16 flags (2);
 * ANSI label and source path, NUL-terminated; u32 0x00030000; u32 n + temp path; u32 data size + data; then
 * u32 n + UTF-16 temp path, u32 n + UTF-16 label, u32 n + UTF-16 source path (n in code units).
 * `dataSizeOverride` writes a wrong data size (a malformed package).
 */
export function ole10Native(label: string, data: Buffer, options: { unicodeLabel?: string; dataSizeOverride?: number } = {}): Buffer {
  const u32 = (value: number) => {
    const out = Buffer.alloc(4);
    out.writeUInt32LE(value >>> 0);
    return out;
  };
  const source = `C:\\Users\\clerk\\Desktop\\${label}`;
  const temp = `C:\\Users\\clerk\\AppData\\Local\\Temp\\${label}`;
  const wide = (value: string) => Buffer.concat([u32(value.length), Buffer.from(value, 'utf16le')]);
  const body = Buffer.concat([
    Buffer.from([2, 0]),
    Buffer.from(`${label}\0${source}\0`, 'latin1'),
    u32(0x00030000),
    u32(temp.length + 1),
    Buffer.from(`${temp}\0`, 'latin1'),
    u32(options.dataSizeOverride ?? data.length),
    data,
    ...(options.unicodeLabel ? [wide(temp), wide(options.unicodeLabel), wide(source)] : []),
  ]);
  return Buffer.concat([u32(body.length), body]);
}

/** word/embeddings/oleObjectN.bin: an OLE compound file holding a Package object's streams (\x01Ole10Native and \x01CompObj). */
export function packageObject(native: Buffer): Buffer {
  // \x01CompObj: version header, then the user type, clipboard format and ProgID as length-prefixed ANSI strings.
  const ansi = (value: string) => {
    const out = Buffer.alloc(4 + value.length + 1);
    out.writeUInt32LE(value.length + 1);
    out.write(value, 4, 'latin1');
    return out;
  };
  const compObj = Buffer.concat([Buffer.from([1, 0, 0xfe, 0xff, 3, 0x0a, 0, 0, 0xff, 0xff, 0xff, 0xff]), Buffer.alloc(16), ansi('OLE Package'), Buffer.alloc(4), ansi('Package')]);
  return writeCompoundFile([
    { name: '\u0001CompObj', bytes: compObj },
    { name: '\u0001Ole10Native', bytes: native },
  ]);
}

/**
 * A real .docx with `objects` embedded as Word does for a Package object: each at word/embeddings/oleObjectN.bin,
 * with an oleObject relationship in word/_rels/document.xml.rels and the "bin" default content type
 * (application/vnd.openxmlformats-officedocument.oleObject) in [Content_Types].xml. The body's <w:object>
 * reference (and its icon image) is left out: LibreOffice converts the text either way.
 */
export function docxWithOleObjects(docx: Buffer, objects: Buffer[]): Promise<Buffer> {
  const parts = objects.map((bytes, index) => ({ name: `word/embeddings/oleObject${index + 1}.bin`, bytes }));
  return withParts(docx, parts, (name, data) => {
    if (name === '[Content_Types].xml' && !/Extension="bin"/.test(data.toString('utf8'))) {
      return Buffer.from(data.toString('utf8').replace('</Types>', '<Default Extension="bin" ContentType="application/vnd.openxmlformats-officedocument.oleObject"/></Types>'));
    }
    if (name === 'word/_rels/document.xml.rels') {
      const rels = objects.map((_, index) => `<Relationship Id="rIdOle${index + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/oleObject" Target="embeddings/oleObject${index + 1}.bin"/>`);
      return Buffer.from(data.toString('utf8').replace('</Relationships>', `${rels.join('')}</Relationships>`));
    }
    return data;
  });
}

/**
 * A legacy .doc (written by LibreOffice) with `natives` added where Word 97-2003 keeps embedded objects: one
 * ObjectPool/_<id> storage per object holding its \x01CompObj and \x01Ole10Native streams. The file is read
 * with msgreader's CFB reader and written again with its burner (the body's field codes are left out).
 */
export function docWithObjectPool(doc: Buffer, natives: Buffer[]): Buffer {
  const reader = new Reader(doc.buffer.slice(doc.byteOffset, doc.byteOffset + doc.byteLength) as ArrayBuffer);
  reader.parse();
  const nodes = (folder: CFolder): Node[] => [
    ...folder.fileNameSets().map((file) => ({ name: file.name, bytes: file.provider() })),
    ...folder.subFolders().map((sub) => ({ name: sub.name, children: nodes(sub) })),
  ];
  const objects = natives.map((native, index) => {
    const object = packageObject(native);
    const inner = new Reader(object.buffer.slice(object.byteOffset, object.byteOffset + object.byteLength) as ArrayBuffer);
    inner.parse();
    return { name: `_${1_234_567_890 + index}`, children: nodes(inner.rootFolder()) };
  });
  return writeCompoundFile([...nodes(reader.rootFolder()), { name: 'ObjectPool', children: objects }]);
}
