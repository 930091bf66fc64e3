import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObjectStreamParser,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFString,
  PDFWriter,
  type PDFObject,
} from 'pdf-lib';
import { aesDecrypt, rc4 } from './ciphers.js';
import { fileKey, objectKey, type StandardSecurity } from './keys.js';
import { loadPdfLib } from '../../pdf-lib-load.js';

// An unencrypted working copy of a PDF encrypted with the standard security handler, for the content-level
// redaction (pdf-lib cannot read encrypted files). Opens with the empty user password, or the one given.
// Every string and stream is decrypted with its object's key; object streams are decrypted, then expanded.

export type DecryptOutcome = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

type Method = 'none' | 'rc4' | 'aes';

interface Handler {
  key: Uint8Array;
  revision: number;
  strings: Method;
  streams: Method;
  encryptMetadata: boolean;
}

const ENDOBJ = [...Buffer.from('endobj', 'latin1')];

interface ParserInternals {
  parseIndirectObjectHeader(): PDFRef;
  skipWhitespaceAndComments(): void;
  parseObject(): PDFObject;
  matchKeyword(keyword: number[]): boolean;
  context: PDFContext;
  parseIndirectObject(): Promise<PDFRef>;
}

/** Parses every object, keeping object streams packed (their bytes are encrypted) for later. */
async function parse(bytes: Uint8Array): Promise<{ context: PDFContext; packed: [PDFRef, PDFRawStream][] }> {
  const parser = PDFParser.forBytesWithOptions(bytes, Infinity, false, false);
  const internals = parser as unknown as ParserInternals;
  const packed: [PDFRef, PDFRawStream][] = [];
  const original = internals.parseIndirectObject.bind(parser);
  internals.parseIndirectObject = async function parseIndirectObject(this: ParserInternals) {
    const start = (parser as unknown as { bytes: { offset(): number; moveTo(offset: number): void } }).bytes;
    const offset = start.offset();
    const ref = this.parseIndirectObjectHeader();
    this.skipWhitespaceAndComments();
    const object = this.parseObject();
    if (object instanceof PDFRawStream && object.dict.lookup(PDFName.of('Type')) === PDFName.of('ObjStm')) {
      this.skipWhitespaceAndComments();
      this.matchKeyword(ENDOBJ);
      packed.push([ref, object]);
      return ref;
    }
    // Everything else (cross-reference streams included) as pdf-lib does it.
    start.moveTo(offset);
    return original();
  };
  const context = await parser.parseDocument();
  return { context, packed };
}

function bytesAt(context: PDFContext, dict: PDFDict, key: string): Uint8Array | undefined {
  const value = dict.lookup(PDFName.of(key));
  return value instanceof PDFString || value instanceof PDFHexString ? value.asBytes() : undefined;
}

function numberAt(dict: PDFDict | undefined, key: string): number | undefined {
  const value = dict?.lookup(PDFName.of(key));
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

function cryptMethod(encrypt: PDFDict, filterKey: 'StmF' | 'StrF'): Method | string {
  const name = encrypt.lookup(PDFName.of(filterKey));
  const filter = name instanceof PDFName ? name.decodeText() : 'Identity';
  if (filter === 'Identity') return 'none';
  const filters = encrypt.lookup(PDFName.of('CF'));
  const entry = filters instanceof PDFDict ? filters.lookup(PDFName.of(filter)) : undefined;
  const cfm = entry instanceof PDFDict ? entry.lookup(PDFName.of('CFM')) : undefined;
  const method = cfm instanceof PDFName ? cfm.decodeText() : 'None';
  if (method === 'V2') return 'rc4';
  if (method === 'AESV2' || method === 'AESV3') return 'aes';
  if (method === 'None') return 'none';
  return `the crypt filter method ${method} is not supported`;
}

function handlerOf(context: PDFContext, password: string): Handler | string {
  const encrypt = context.lookup(context.trailerInfo.Encrypt);
  if (!(encrypt instanceof PDFDict)) return 'the encryption dictionary cannot be read';
  const filter = encrypt.lookup(PDFName.of('Filter'));
  if (!(filter instanceof PDFName) || filter.decodeText() !== 'Standard') return 'it is encrypted with a security handler other than the standard one (certificates)';
  const version = numberAt(encrypt, 'V') ?? 0;
  const revision = numberAt(encrypt, 'R') ?? 0;
  const owner = bytesAt(context, encrypt, 'O');
  const user = bytesAt(context, encrypt, 'U');
  if (!owner || !user || ![1, 2, 4, 5].includes(version) || revision < 2 || revision > 6) return `its encryption (V ${version}, R ${revision}) is not supported`;
  const ids = context.lookup(context.trailerInfo.ID);
  const first = ids instanceof PDFArray ? ids.lookup(0) : undefined;
  const id = first instanceof PDFString || first instanceof PDFHexString ? first.asBytes() : new Uint8Array(0);
  const metadata = encrypt.lookup(PDFName.of('EncryptMetadata'));
  const security: StandardSecurity = {
    revision,
    length: Math.max(5, Math.min(16, Math.floor((numberAt(encrypt, 'Length') ?? 40) / 8))),
    owner,
    user,
    permissions: numberAt(encrypt, 'P') ?? -1,
    id,
    encryptMetadata: metadata?.toString() !== 'false',
    ...(bytesAt(context, encrypt, 'UE') && { userEncrypted: bytesAt(context, encrypt, 'UE') as Uint8Array }),
  };
  const key = fileKey(security, password);
  if (!key) return password === '' ? 'it needs a password to open' : 'the password given does not open it';
  let strings: Method | string = 'rc4';
  let streams: Method | string = 'rc4';
  if (version >= 4) {
    strings = cryptMethod(encrypt, 'StrF');
    streams = cryptMethod(encrypt, 'StmF');
  }
  if (typeof strings === 'string' && !['none', 'rc4', 'aes'].includes(strings)) return strings;
  if (typeof streams === 'string' && !['none', 'rc4', 'aes'].includes(streams)) return streams;
  return { key, revision, strings: strings as Method, streams: streams as Method, encryptMetadata: security.encryptMetadata };
}

function decryptBytes(handler: Handler, method: Method, ref: PDFRef, data: Uint8Array): Uint8Array {
  if (method === 'none') return data;
  const key = handler.revision >= 5 ? handler.key : objectKey(handler.key, ref.objectNumber, ref.generationNumber, method === 'aes');
  return method === 'aes' ? aesDecrypt(key, data) : rc4(key, data);
}

/** Decrypts the strings inside a value (direct objects only: references are decrypted with their own object). */
function decryptValue(handler: Handler, ref: PDFRef, value: PDFObject): PDFObject {
  if (value instanceof PDFString || value instanceof PDFHexString) return PDFHexString.of(Buffer.from(decryptBytes(handler, handler.strings, ref, value.asBytes())).toString('hex'));
  if (value instanceof PDFArray) {
    for (let index = 0; index < value.size(); index += 1) value.set(index, decryptValue(handler, ref, value.get(index)));
  } else if (value instanceof PDFDict) {
    for (const [key, item] of value.entries()) value.set(key, decryptValue(handler, ref, item));
  }
  return value;
}

/**
 * The document without its encryption, as PDF bytes pdf-lib reads; the reason when it cannot be opened.
 * Unencrypted input comes back unchanged.
 */
export async function decryptPdf(bytes: Uint8Array, password = ''): Promise<DecryptOutcome> {
  let parsed: Awaited<ReturnType<typeof parse>>;
  try {
    parsed = await parse(bytes);
  } catch (error) {
    return { ok: false, reason: `the file cannot be parsed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const { context, packed } = parsed;
  if (!context.trailerInfo.Encrypt) return { ok: true, bytes };
  const handler = handlerOf(context, password);
  if (typeof handler === 'string') return { ok: false, reason: handler };
  const encryptRef = context.trailerInfo.Encrypt instanceof PDFRef ? context.trailerInfo.Encrypt : null;
  try {
    for (const [ref, object] of context.enumerateIndirectObjects()) {
      if (encryptRef && ref === encryptRef) continue;
      if (object instanceof PDFRawStream) {
        const type = object.dict.lookup(PDFName.of('Type'));
        if (type === PDFName.of('XRef')) continue;
        decryptValue(handler, ref, object.dict);
        if (type === PDFName.of('Metadata') && !handler.encryptMetadata) continue;
        context.assign(ref, PDFRawStream.of(object.dict, decryptBytes(handler, handler.streams, ref, object.contents)));
      } else {
        context.assign(ref, decryptValue(handler, ref, object));
      }
    }
    // Objects inside object streams were encrypted with their stream (not each string); objects stored on
    // their own win over packed ones of the same number.
    const own = new Map(context.enumerateIndirectObjects());
    for (const [ref, stream] of packed) {
      const plain = PDFRawStream.of(stream.dict, decryptBytes(handler, handler.streams, ref, stream.contents));
      await PDFObjectStreamParser.forStream(plain, () => false).parseIntoContext();
    }
    for (const [ref, object] of own) context.assign(ref, object);
  } catch (error) {
    return { ok: false, reason: `it cannot be decrypted: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (encryptRef) context.delete(encryptRef);
  context.trailerInfo.Encrypt = undefined;
  return { ok: true, bytes: await PDFWriter.forContext(context, Infinity).serializeToBuffer() };
}

/**
 * pdf-lib's document of a PDF; an encrypted one through its unencrypted working copy (empty user password).
 * Throws with the reason when pdf-lib cannot read it either way.
 */
export async function loadWritable(bytes: Uint8Array): Promise<PDFDocument> {
  // Only a file naming /Encrypt can be encrypted (the trailer's key is never hidden inside a stream).
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('/Encrypt')) return loadPdfLib(bytes);
  const plain = await decryptPdf(bytes);
  if (!plain.ok) throw new Error(`the file is encrypted and ${plain.reason}`);
  return loadPdfLib(plain.bytes);
}
