/**
 * Takes message/rfc822 parts out of a MIME message before mailparser sees it: mailparser folds forwarded
 * messages into the parent's text, but intake makes each one a child document of its own (nested to any
 * depth, one level per document). Walks multipart bodies recursively, at most MAX_MULTIPART_DEPTH levels;
 * other parts are left byte for byte.
 */
export interface EmbeddedMessage {
  name: string;
  bytes: Buffer;
}

const MAX_PARTS = 20_000;
/** Multipart inside multipart: real mail nests a handful of levels; thousands only exhaust the stack (a V8 fatal error at ~14,000). */
export const MAX_MULTIPART_DEPTH = 100;

function splitHead(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { head: raw, body: '' };
  return { head: raw.slice(0, match.index + match[0].length), body: raw.slice(match.index + match[0].length) };
}

function header(head: string, name: string): string | null {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(unfolded);
  return match ? (match[1] ?? '').trim() : null;
}

function param(value: string, name: string): string | null {
  const match = new RegExp(`(?:^|;)\\s*${name}\\*?=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function decodeBody(body: string, encoding: string | null): Buffer {
  const kind = (encoding ?? '').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (kind === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    return Buffer.from(soft.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  }
  return Buffer.from(body, 'latin1');
}

/** Works on latin1 strings so every byte maps to one character and back unchanged. */
export function splitEmbeddedMessages(raw: Buffer): { stripped: Buffer; messages: EmbeddedMessage[] } {
  const messages: EmbeddedMessage[] = [];
  let parts = 0;
  const walk = (entity: string, depth: number): string => {
    const { head, body } = splitHead(entity);
    const type = header(head, 'content-type') ?? '';
    const boundary = /^multipart\//i.test(type) ? param(type, 'boundary') : null;
    if (!boundary) return entity;
    if (depth >= MAX_MULTIPART_DEPTH) throw new Error(`the message's MIME parts nest more than ${MAX_MULTIPART_DEPTH} levels deep; refused`);
    const delimiter = `--${boundary}`;
    const pieces = body.split(new RegExp(`(?:^|\\r?\\n)${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    if (pieces.length < 2) return entity;
    const kept: string[] = [pieces[0] ?? ''];
    for (const piece of pieces.slice(1)) {
      if (piece.startsWith('--') || ++parts > MAX_PARTS) {
        kept.push(piece);
        continue;
      }
      const lineEnd = piece.match(/^[ \t]*\r?\n/)?.[0] ?? '';
      const part = piece.slice(lineEnd.length);
      const partHead = splitHead(part).head;
      const partType = header(partHead, 'content-type') ?? 'text/plain';
      if (/^message\/rfc822/i.test(partType)) {
        const disposition = header(partHead, 'content-disposition') ?? '';
        const name = param(disposition, 'filename') ?? param(partType, 'name') ?? `message-${messages.length + 1}.eml`;
        messages.push({ name: /\.eml$/i.test(name) ? name : `${name}.eml`, bytes: decodeBody(splitHead(part).body, header(partHead, 'content-transfer-encoding')) });
        continue;
      }
      kept.push(lineEnd + walk(part, depth + 1));
    }
    return head + kept.join(`\r\n${delimiter}`);
  };
  const text = raw.toString('latin1');
  const stripped = walk(text, 0);
  return { stripped: messages.length === 0 ? raw : Buffer.from(stripped, 'latin1'), messages };
}
