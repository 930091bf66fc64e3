import { burn, type Entry } from '@kenjiuno/msgreader/lib/Burner.js';

// Outlook .msg files written at test time by msgreader's own compound-file writer (Burner.burn), laid out
// as [MS-OXMSG] describes: a property stream per storage, strings and binaries in __substg1.0_ streams,
// recipients in __recip_version1.0_#n, attachments in __attach_version1.0_#n, an embedded message in the
// attachment's __substg1.0_3701000D storage.

const TypeEnum = { DIRECTORY: 1, DOCUMENT: 2, ROOT: 5 } as const;

export interface MsgRecipient {
  name: string;
  address: string;
  type: 'to' | 'cc' | 'bcc';
}

export interface MsgAttachment {
  name: string;
  mimeType?: string;
  bytes?: Buffer;
  /** An Outlook message attached as a message (attach method 5), not as a file. */
  message?: MsgMessage;
}

export interface MsgMessage {
  subject: string;
  senderName: string;
  senderAddress: string;
  recipients: MsgRecipient[];
  body: string;
  html?: string;
  messageId?: string;
  /** RFC 822 transport headers (Date, In-Reply-To, References are read from here). */
  transportHeaders?: string;
  submitTime?: Date;
  attachments?: MsgAttachment[];
}

/** A compound-file entry: a stream (`bytes`) or a storage (`children`). */
export interface Node {
  name: string;
  bytes?: Uint8Array;
  children?: Node[];
}

const PT_LONG = 0x0003;
const PT_SYSTIME = 0x0040;
const PT_UNICODE = 0x001f;
const PT_BINARY = 0x0102;
const PT_OBJECT = 0x000d;

const hex = (value: number) => value.toString(16).toUpperCase().padStart(4, '0');
const utf16 = (value: string) => Buffer.from(`${value}\0`, 'utf16le');

class PropertyBag {
  private readonly fixed: Buffer[] = [];
  readonly streams: Node[] = [];

  string(id: number, value: string): this {
    return this.variable(id, PT_UNICODE, utf16(value));
  }

  binary(id: number, value: Buffer): this {
    return this.variable(id, PT_BINARY, value);
  }

  long(id: number, value: number): this {
    const entry = this.entry(id, PT_LONG);
    entry.writeUInt32LE(value >>> 0, 8);
    this.fixed.push(entry);
    return this;
  }

  time(id: number, value: Date): this {
    const entry = this.entry(id, PT_SYSTIME);
    // FILETIME: 100 ns intervals since 1601-01-01.
    entry.writeBigUInt64LE((BigInt(value.getTime()) + 11_644_473_600_000n) * 10_000n, 8);
    this.fixed.push(entry);
    return this;
  }

  object(id: number, size: number): this {
    const entry = this.entry(id, PT_OBJECT);
    entry.writeUInt32LE(size, 8);
    this.fixed.push(entry);
    return this;
  }

  /** The property stream: `header` bytes (32 top level, 24 embedded message, 8 recipient/attachment), then 16-byte entries. */
  stream(header: Buffer): Node {
    return { name: '__properties_version1.0', bytes: Buffer.concat([header, ...this.fixed]) };
  }

  private variable(id: number, type: number, data: Buffer): this {
    const entry = this.entry(id, type);
    entry.writeUInt32LE(data.length, 8);
    this.fixed.push(entry);
    this.streams.push({ name: `__substg1.0_${hex(id)}${hex(type)}`, bytes: data });
    return this;
  }

  private entry(id: number, type: number): Buffer {
    const entry = Buffer.alloc(16);
    entry.writeUInt32LE(((id << 16) | type) >>> 0, 0);
    entry.writeUInt32LE(0x6, 4); // readable | writable
    return entry;
  }
}

function messageNodes(message: MsgMessage, embedded: boolean): Node[] {
  const bag = new PropertyBag()
    .string(0x001a, 'IPM.Note')
    .string(0x0037, message.subject)
    .string(0x0c1a, message.senderName)
    .string(0x0c1f, message.senderAddress)
    .string(0x5d01, message.senderAddress)
    .string(0x1000, message.body);
  if (message.html) bag.binary(0x1013, Buffer.from(message.html, 'utf8'));
  if (message.messageId) bag.string(0x1035, message.messageId);
  if (message.transportHeaders) bag.string(0x007d, message.transportHeaders);
  if (message.submitTime) bag.time(0x0039, message.submitTime);
  const attachments = message.attachments ?? [];
  const header = Buffer.alloc(embedded ? 24 : 32);
  header.writeUInt32LE(message.recipients.length, 8);
  header.writeUInt32LE(attachments.length, 12);
  header.writeUInt32LE(message.recipients.length, 16);
  header.writeUInt32LE(attachments.length, 20);
  const nodes: Node[] = [bag.stream(header), ...bag.streams];
  const suffix = (index: number) => `#${index.toString(16).toUpperCase().padStart(8, '0')}`;
  message.recipients.forEach((recipient, index) => {
    const recip = new PropertyBag()
      .long(0x0c15, { to: 1, cc: 2, bcc: 3 }[recipient.type])
      .string(0x3001, recipient.name)
      .string(0x3002, 'SMTP')
      .string(0x3003, recipient.address)
      .string(0x39fe, recipient.address);
    nodes.push({ name: `__recip_version1.0_${suffix(index)}`, children: [recip.stream(Buffer.alloc(8)), ...recip.streams] });
  });
  attachments.forEach((attachment, index) => {
    const bag = new PropertyBag().string(0x3707, attachment.name).string(0x3704, attachment.name.slice(0, 12)).string(0x3001, attachment.name);
    const children: Node[] = [];
    if (attachment.message) {
      bag.long(0x3705, 5).object(0x3701, 0xffffffff);
      children.push({ name: '__substg1.0_3701000D', children: messageNodes(attachment.message, true) });
    } else {
      bag.long(0x3705, 1).binary(0x3701, attachment.bytes ?? Buffer.alloc(0));
      if (attachment.mimeType) bag.string(0x370e, attachment.mimeType);
    }
    nodes.push({ name: `__attach_version1.0_${suffix(index)}`, children: [bag.stream(Buffer.alloc(8)), ...bag.streams, ...children] });
  });
  if (!embedded) {
    // The named-property map (empty): Outlook always writes it.
    nodes.push({ name: '__nameid_version1.0', children: [0x0002, 0x0003, 0x0004].map((id) => ({ name: `__substg1.0_${hex(id)}0102`, bytes: new Uint8Array(0) })) });
  }
  return nodes;
}

/** An Outlook .msg file for `message`, written by msgreader's compound-file burner. */
export function writeMsg(message: MsgMessage): Buffer {
  return writeCompoundFile(messageNodes(message, false));
}

/** Any OLE compound file (e.g. an embedded Office "Package" object), its root holding `nodes`. */
export function writeCompoundFile(nodes: Node[]): Buffer {
  const entries: Entry[] = [{ name: 'Root Entry', type: TypeEnum.ROOT, children: [], length: 0 }];
  const add = (parent: number, node: Node) => {
    const index = entries.length;
    (entries[parent]?.children as number[]).push(index);
    if (node.children) {
      entries.push({ name: node.name, type: TypeEnum.DIRECTORY, children: [], length: 0 });
      for (const child of node.children) add(index, child);
    } else {
      // A copy with its own ArrayBuffer: the burner copies from buffer offset 0, and Node's Buffers share a pool.
      const bytes = new Uint8Array(node.bytes ?? new Uint8Array(0));
      entries.push({ name: node.name, type: TypeEnum.DOCUMENT, length: bytes.length, binaryProvider: () => bytes });
    }
  };
  for (const node of nodes) add(0, node);
  return Buffer.from(burn(entries));
}
