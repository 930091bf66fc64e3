import { PSTFile, type PSTFolder, type PSTMessage } from 'pst-extractor';

/** One message taken out of a mailbox file: its own RFC 822 bytes, later a child document. */
export interface ContainedMessage {
  name: string;
  bytes: Buffer;
  /** For the container's listing page. */
  summary: string;
}

/** Splits an mbox (mboxo/mboxrd: `From ` separator lines; `>From ` unescaped) into messages. */
export function splitMbox(raw: Buffer, limit: number): { messages: ContainedMessage[]; total: number } {
  const text = raw.toString('latin1');
  const starts: number[] = [];
  const separator = /^From [^\n]*\n/gm;
  for (let match = separator.exec(text); match; match = separator.exec(text)) starts.push(match.index);
  if (starts[0] !== 0) throw new Error('not an mbox file: it does not start with a "From " line');
  const messages: ContainedMessage[] = [];
  for (let index = 0; index < starts.length && messages.length < limit; index += 1) {
    const start = starts[index] as number;
    const end = starts[index + 1] ?? text.length;
    const chunk = text.slice(start, end);
    const body = chunk.slice(chunk.indexOf('\n') + 1).replace(/^>(>*From )/gm, '$1');
    const bytes = Buffer.from(body.replace(/\r?\n$/, '\n'), 'latin1');
    messages.push({ name: `message-${String(index + 1).padStart(5, '0')}.eml`, bytes, summary: headerSummary(body) });
  }
  return { messages, total: starts.length };
}

function headerSummary(message: string): string {
  const end = message.search(/\r?\n\r?\n/);
  const head = (end === -1 ? message : message.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const field = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  return [field('date'), field('from'), decodeWords(field('subject'))].filter(Boolean).join(' — ');
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, kind: string, data: string) => {
    try {
      const bytes = kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
      return new TextDecoder(charset.toLowerCase()).decode(bytes);
    } catch {
      return data;
    }
  });
}

const word = (value: string) => (/^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`);
const base64Lines = (bytes: Buffer) => (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
const mailbox = (name: string, address: string) => (address ? (name && name !== address ? `${word(name)} <${address}>` : address) : word(name));

/** Writes a PST item as an RFC 822 message, so it is stored, parsed and rendered like any .eml. */
function composeEml(message: PSTMessage, maxAttachments: number): Buffer {
  const transport = message.transportMessageHeaders ?? '';
  const fromTransport = (name: string) => new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(transport)?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim();
  const recipients: Record<number, string[]> = { 1: [], 2: [], 3: [] };
  for (let index = 0; index < message.numberOfRecipients; index += 1) {
    const recipient = message.getRecipient(index);
    if (!recipient) continue;
    const address = recipient.smtpAddress || (recipient.emailAddress.includes('@') ? recipient.emailAddress : '');
    recipients[recipient.recipientType]?.push(mailbox(recipient.displayName, address));
  }
  const sender = message.senderEmailAddress.includes('@') ? message.senderEmailAddress : message.sentRepresentingEmailAddress;
  const date = message.clientSubmitTime ?? message.messageDeliveryTime;
  const boundary = `obscura-pst-${Math.random().toString(36).slice(2)}`;
  const lines = [
    `From: ${mailbox(message.senderName, sender.includes('@') ? sender : '')}`,
    recipients[1]?.length ? `To: ${recipients[1].join(', ')}` : null,
    recipients[2]?.length ? `Cc: ${recipients[2].join(', ')}` : null,
    recipients[3]?.length ? `Bcc: ${recipients[3].join(', ')}` : null,
    `Subject: ${word(message.subject)}`,
    fromTransport('date') ? `Date: ${fromTransport('date')}` : date ? `Date: ${date.toUTCString().replace('GMT', '+0000')}` : null,
    message.internetMessageId ? `Message-ID: ${message.internetMessageId}` : null,
    message.inReplyToId ? `In-Reply-To: ${message.inReplyToId}` : null,
    fromTransport('references') ? `References: ${fromTransport('references')}` : null,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    message.bodyHTML ? 'Content-Type: text/html; charset=utf-8' : 'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(Buffer.from(message.bodyHTML || message.body || '', 'utf8')),
  ];
  for (let index = 0; index < Math.min(message.numberOfAttachments, maxAttachments); index += 1) {
    const attachment = message.getAttachment(index);
    const embedded = attachment.attachMethod === 5 ? attachment.embeddedPSTMessage : null;
    let bytes: Buffer;
    let type: string;
    let name = attachment.longFilename || attachment.filename || `attachment-${index + 1}`;
    if (embedded) {
      bytes = composeEml(embedded, maxAttachments);
      type = 'message/rfc822';
      name = `${embedded.subject || name}.eml`;
    } else {
      const stream = attachment.fileInputStream;
      if (!stream) continue;
      bytes = Buffer.alloc(attachment.filesize);
      stream.readCompletely(bytes);
      type = attachment.mimeTag || 'application/octet-stream';
    }
    const encodedName = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    lines.push(`--${boundary}`, `Content-Type: ${type}`, `Content-Disposition: attachment; filename*=UTF-8''${encodedName}`, 'Content-Transfer-Encoding: base64', '', base64Lines(bytes));
  }
  lines.push(`--${boundary}--`, '');
  return Buffer.from(lines.filter((line) => line !== null).join('\r\n'), 'utf8');
}

/** Every e-mail item of a PST, folder by folder (depth first), up to `limit`; non-mail items (contacts, tasks) skipped. */
export function expandPst(file: string, limit: number, maxAttachments: number, emit: (message: ContainedMessage) => void): { taken: number; total: number; skipped: number } {
  const pst = new PSTFile(file);
  let taken = 0;
  let total = 0;
  let skipped = 0;
  const visit = (folder: PSTFolder, trail: string) => {
    if (folder.contentCount > 0) {
      for (let item = folder.getNextChild() as PSTMessage | null; item; item = folder.getNextChild() as PSTMessage | null) {
        if (!/^IPM\.Note/i.test(item.messageClass || 'IPM.Note')) {
          skipped += 1;
          continue;
        }
        total += 1;
        if (taken >= limit) continue;
        taken += 1;
        // Written out one by one: a large PST never sits in memory.
        emit({ name: `message-${String(taken).padStart(5, '0')}.eml`, bytes: composeEml(item, maxAttachments), summary: [trail, item.subject].filter(Boolean).join(' — ') });
      }
    }
    if (folder.hasSubfolders) for (const child of folder.getSubFolders()) visit(child, trail ? `${trail}/${child.displayName}` : child.displayName);
  };
  try {
    visit(pst.getRootFolder(), '');
  } finally {
    pst.close();
  }
  return { taken, total, skipped };
}
