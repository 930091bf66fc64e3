import MsgReaderModule from '@kenjiuno/msgreader';
import { convert as htmlToText } from 'html-to-text';
import { simpleParser, type AddressObject } from 'mailparser';
import type { EmailHeaders } from '../../main/common/schemas/documents.js';
import { checkCompoundFile } from './cfb-check.js';
import { splitEmbeddedMessages } from './mime-split.js';

// A CommonJS package: under Node's ESM loader its default export arrives one level down.
const MsgReader = MsgReaderModule.default;

/** MIME parts read from one message; past this mailparser stops with 'Max allowed child nodes exceeded'. */
export const MAX_MIME_PARTS = 20_000;

export interface MessagePart {
  name: string;
  contentType: string;
  bytes: Buffer;
  inline: boolean;
}

export interface ParsedMessage {
  headers: EmailHeaders;
  body: string;
  attachments: MessagePart[];
}

/** HTML to laid-out text: links shown with their target, images never loaded (dropped, alt text kept). */
export function htmlBody(html: string): string {
  return htmlToText(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true, ignoreHref: false } },
      { selector: 'style', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'table', format: 'dataTable' },
    ],
    limits: { maxInputLength: 20_000_000 },
  });
}

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const out: string[] = [];
  const push = (entry: { name: string; address?: string; group?: { name: string; address?: string }[] }) => {
    if (entry.group) {
      for (const member of entry.group) push(member);
      return;
    }
    if (entry.address && entry.name) out.push(`${entry.name} <${entry.address}>`);
    else if (entry.address) out.push(entry.address);
    else if (entry.name) out.push(entry.name);
  };
  for (const object of list) for (const entry of object.value) push(entry);
  return out;
}

function ids(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).flatMap((entry) => entry.match(/<[^<>\s]+>/g) ?? (entry.trim() ? [entry.trim()] : []));
}

/** RFC 5322/MIME through mailparser (any charset, encoded words, RFC 2231 names); forwarded messages split off first. */
export async function parseEml(raw: Buffer): Promise<ParsedMessage> {
  const { stripped, messages } = splitEmbeddedMessages(raw);
  // maxChildNodes goes to mailparser's splitter (default 1,000 parts): a message of up to 20,000 parts is read,
  // and the attachment limit then decides how many become documents.
  const options = { skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true, maxHtmlLengthToParse: 20_000_000, maxChildNodes: MAX_MIME_PARTS };
  const parsed = await simpleParser(stripped, options as Parameters<typeof simpleParser>[1]);
  if (parsed.headerLines.length === 0) throw new Error('not a MIME message: no header fields were found');
  const dateLine = parsed.headerLines.find((line) => line.key === 'date')?.line ?? null;
  const headers: EmailHeaders = {
    from: addresses(parsed.from).join(', '),
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    bcc: addresses(parsed.bcc),
    date: dateLine === null ? null : dateLine.replace(/^date:\s*/i, '').replace(/\s+/g, ' ').trim(),
    subject: parsed.subject ?? '',
    message_id: parsed.messageId ?? null,
    in_reply_to: ids(parsed.inReplyTo)[0] ?? null,
    references: ids(parsed.references),
  };
  const body = parsed.html ? htmlBody(parsed.html) : (parsed.text ?? '');
  const attachments: MessagePart[] = parsed.attachments.map((attachment, index) => ({
    name: attachment.filename ?? `attachment-${index + 1}${extensionFor(attachment.contentType)}`,
    contentType: attachment.contentType,
    bytes: attachment.content,
    inline: attachment.contentDisposition === 'inline' || attachment.related === true,
  }));
  for (const message of messages) attachments.push({ name: message.name, contentType: 'message/rfc822', bytes: message.bytes, inline: false });
  return { headers, body, attachments };
}

function extensionFor(contentType: string): string {
  const known: Record<string, string> = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'application/pdf': '.pdf', 'text/plain': '.txt', 'message/rfc822': '.eml' };
  return known[contentType.toLowerCase()] ?? '.bin';
}

function headerValue(headers: string | undefined, name: string): string | null {
  if (!headers) return null;
  const match = new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(headers);
  return match ? (match[1] ?? '').replace(/\r?\n[ \t]+/g, ' ').trim() : null;
}

/** Outlook .msg (OLE compound file) through msgreader; an embedded .msg comes back as a .msg file of its own. */
export function parseMsg(raw: Buffer): ParsedMessage {
  try {
    return readMsg(raw);
  } catch (error) {
    // msgreader's own errors (e.g. DataView bounds) say nothing to a clerk.
    if (error instanceof Error && error.message.startsWith('not a readable Outlook message')) throw error;
    throw new Error(`not a readable Outlook message (damaged or cut short): ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readMsg(raw: Buffer): ParsedMessage {
  checkCompoundFile(raw); // a looping chain would make msgreader run without end
  const reader = new MsgReader(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer);
  const data = reader.getFileData();
  if (data.error) throw new Error(`not a readable Outlook message: ${data.error}`);
  // An empty or zeroed compound file parses to nothing: not a message, rather than an empty document.
  if (!data.messageClass && !data.subject && !data.body && !data.senderEmail && !(data.recipients ?? []).length && !(data.attachments ?? []).length) {
    throw new Error('not a readable Outlook message: the file holds no message properties');
  }
  const recipients = (kind: 'to' | 'cc' | 'bcc') =>
    (data.recipients ?? [])
      .filter((recipient) => (recipient.recipType ?? 'to') === kind)
      .map((recipient) => {
        const address = recipient.smtpAddress ?? recipient.email;
        return address && recipient.name && recipient.name !== address ? `${recipient.name} <${address}>` : (address ?? recipient.name ?? '');
      })
      .filter(Boolean);
  const sender = data.senderSmtpAddress ?? data.senderEmail;
  const transport = data.headers;
  const html = data.bodyHtml ?? (data.html ? Buffer.from(data.html).toString('utf8') : undefined);
  const headers: EmailHeaders = {
    from: sender && data.senderName && data.senderName !== sender ? `${data.senderName} <${sender}>` : (sender ?? data.senderName ?? ''),
    to: recipients('to'),
    cc: recipients('cc'),
    bcc: recipients('bcc'),
    date: headerValue(transport, 'date') ?? data.clientSubmitTime ?? data.messageDeliveryTime ?? data.creationTime ?? null,
    subject: data.subject ?? '',
    message_id: data.messageId ?? headerValue(transport, 'message-id'),
    in_reply_to: headerValue(transport, 'in-reply-to'),
    references: (headerValue(transport, 'references') ?? '').match(/<[^<>\s]+>/g) ?? [],
  };
  const attachments: MessagePart[] = (data.attachments ?? []).map((attachment, index) => {
    const file = reader.getAttachment(attachment);
    const name = file.fileName || attachment.name || `attachment-${index + 1}`;
    return {
      name,
      contentType: attachment.innerMsgContent ? 'application/vnd.ms-outlook' : (attachment.attachMimeTag ?? 'application/octet-stream'),
      bytes: Buffer.from(file.content),
      inline: attachment.attachmentHidden === true || Boolean(attachment.pidContentId),
    };
  });
  return { headers, body: html ? htmlBody(html) : (data.body ?? ''), attachments };
}
