import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { LEGACY_OFFICE_TYPES, ODF_TYPES, OOXML_TYPES, TEXT_TYPES } from '../common/accepted-files.js';

/** `email`, `office` and `text` are kept only until intake converts them: the document then becomes `pdf`. */
export const DOCUMENT_TYPES = ['pdf', 'png', 'jpeg', 'tiff', 'audio', 'video', 'email', 'office', 'text'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface DetectedType {
  mediaType: string;
  documentType: DocumentType;
}

export { ACCEPTED_TYPES_TEXT } from '../common/accepted-files.js';

const OOXML = OOXML_TYPES;
const ODF = ODF_TYPES;
const LEGACY_OFFICE = LEGACY_OFFICE_TYPES;
const TEXT = TEXT_TYPES;

async function head(file: string, bytes: number): Promise<Buffer> {
  const handle = await fsp.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const PDF_HEADER_WINDOW = 1024;

/** Header names an RFC 5322 message starts with; a text file named .eml without them is not a message. */
const MESSAGE_HEADER = /^(from|to|cc|subject|date|message-id|received|return-path|mime-version|x-[\w-]+|delivered-to|reply-to|sender|in-reply-to|references|content-type|thread-topic|dkim-signature|authentication-results|arc-[\w-]+):/im;

function looksLikeText(bytes: Buffer): boolean {
  return !bytes.includes(0);
}

function looksLikeMessage(bytes: Buffer): boolean {
  if (!looksLikeText(bytes)) return false;
  const text = bytes.toString('latin1');
  const headerEnd = text.search(/\r?\n\r?\n/);
  const block = headerEnd === -1 ? text : text.slice(0, headerEnd);
  return /^[!-9;-~]+:/.test(block.replace(/^From [^\n]*\n/, '')) && MESSAGE_HEADER.test(block);
}

/**
 * Decides what a file is from its bytes; the name a client gave only chooses between formats the bytes
 * cannot tell apart (an Outlook .msg and a Word .doc are both OLE compound files; .eml, .mbox, .txt, .csv and
 * .html are all text). A name whose format the bytes contradict is refused. Null: not accepted.
 */
export async function detectDocumentType(file: string, name = ''): Promise<DetectedType | null> {
  const ext = path.extname(name).toLowerCase();
  const detected = await fileTypeFromFile(file);
  if (detected) {
    const { mime } = detected;
    if (mime === 'application/pdf') return { mediaType: mime, documentType: 'pdf' };
    if (mime === 'image/png') return { mediaType: mime, documentType: 'png' };
    if (mime === 'image/jpeg') return { mediaType: mime, documentType: 'jpeg' };
    if (mime === 'image/tiff') return { mediaType: mime, documentType: 'tiff' };
    if (mime.startsWith('audio/')) return { mediaType: mime, documentType: 'audio' };
    if (mime.startsWith('video/')) return { mediaType: mime, documentType: 'video' };
    if (mime === 'application/vnd.ms-outlook') return { mediaType: mime, documentType: 'email' };
    if (Object.values(OOXML).includes(mime) || Object.values(ODF).includes(mime)) return { mediaType: mime, documentType: 'office' };
    if (mime === 'application/rtf') return { mediaType: mime, documentType: 'office' };
    if (mime === 'application/x-cfb') {
      if (ext === '.msg') return { mediaType: 'application/vnd.ms-outlook', documentType: 'email' };
      const legacy = LEGACY_OFFICE[ext];
      if (legacy) return { mediaType: legacy, documentType: 'office' };
      // Encrypted OOXML is an OLE file too: kept, and intake explains that it is password-protected.
      const modern = OOXML[ext];
      if (modern) return { mediaType: modern, documentType: 'office' };
      return null;
    }
    // A zip named like an Office file that file-type could not place (e.g. no [Content_Types].xml first).
    if (mime === 'application/zip' && (OOXML[ext] || ODF[ext])) return { mediaType: OOXML[ext] ?? ODF[ext] ?? mime, documentType: 'office' };
    return null;
  }
  const bytes = await head(file, 64 * 1024);
  if (bytes.length === 0) return null;
  // Readers accept a PDF header anywhere in the first 1,024 bytes (junk written before it by mail gateways and
  // old scanners); a file named .pdf, or unnamed, whose header sits there is a PDF.
  if ((ext === '.pdf' || ext === '') && bytes.subarray(0, PDF_HEADER_WINDOW).includes('%PDF-')) {
    return { mediaType: 'application/pdf', documentType: 'pdf' };
  }
  if ((ext === '.mbox' || ext === '.mbx') && bytes.subarray(0, 5).toString('latin1') === 'From ') {
    return { mediaType: 'application/mbox', documentType: 'email' };
  }
  if (ext === '.eml' || ext === '.mht' || ext === '') {
    if (looksLikeMessage(bytes)) return { mediaType: 'message/rfc822', documentType: 'email' };
    return null;
  }
  const text = TEXT[ext];
  if (text && looksLikeText(bytes)) return { mediaType: text, documentType: 'text' };
  if (ext === '.rtf' && bytes.subarray(0, 5).toString('latin1') === '{\\rtf') return { mediaType: 'application/rtf', documentType: 'office' };
  return null;
}

/** The documents.source_type a detected type starts with. */
export function sourceTypeOf(documentType: string): 'pdf' | 'image' | 'email' | 'office' | 'text' | 'audio' {
  if (documentType === 'png' || documentType === 'jpeg' || documentType === 'tiff') return 'image';
  if (documentType === 'audio' || documentType === 'video') return 'audio';
  if (documentType === 'email' || documentType === 'office' || documentType === 'text') return documentType;
  return 'pdf';
}
