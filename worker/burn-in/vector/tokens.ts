// A content-stream lexer and operation parser (PDF 32000-1, 7.2–7.3 and 8.9.7). Every operation keeps the byte
// range it came from, so whatever is not rewritten is written back exactly as it was.

export type Operand =
  | { type: 'number'; value: number }
  | { type: 'name'; value: string }
  | { type: 'string'; bytes: Uint8Array; hex: boolean }
  | { type: 'array'; items: Operand[] }
  | { type: 'dict'; entries: Map<string, Operand> }
  | { type: 'boolean'; value: boolean }
  | { type: 'null' };

export interface Operation {
  operator: string;
  operands: Operand[];
  /** Byte range [start, end) of the operands and the operator (for inline images: BI through EI). */
  start: number;
  end: number;
  /** Inline images (operator BI): the image dictionary; the data stays in the original bytes. */
  image?: Map<string, Operand>;
}

export class ContentSyntaxError extends Error {}

const enum Char {
  Tab = 0x09,
  LineFeed = 0x0a,
  FormFeed = 0x0c,
  Return = 0x0d,
  Space = 0x20,
  Percent = 0x25,
  ParenOpen = 0x28,
  ParenClose = 0x29,
  Slash = 0x2f,
  Less = 0x3c,
  Greater = 0x3e,
  BracketOpen = 0x5b,
  Backslash = 0x5c,
  BracketClose = 0x5d,
  BraceOpen = 0x7b,
  BraceClose = 0x7d,
  Hash = 0x23,
}

export function isWhitespace(byte: number): boolean {
  return byte === Char.Space || byte === Char.LineFeed || byte === Char.Return || byte === Char.Tab || byte === Char.FormFeed || byte === 0;
}

function isDelimiter(byte: number): boolean {
  return (
    byte === Char.ParenOpen ||
    byte === Char.ParenClose ||
    byte === Char.Less ||
    byte === Char.Greater ||
    byte === Char.BracketOpen ||
    byte === Char.BracketClose ||
    byte === Char.BraceOpen ||
    byte === Char.BraceClose ||
    byte === Char.Slash ||
    byte === Char.Percent
  );
}

function isRegular(byte: number): boolean {
  return !isWhitespace(byte) && !isDelimiter(byte);
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

type Token =
  | { kind: 'value'; value: Operand; start: number }
  | { kind: 'keyword'; value: string; start: number }
  | { kind: 'open-array' | 'close-array' | 'open-dict' | 'close-dict'; start: number };

/** Reads tokens one at a time; `position` is where the next token search starts. */
class Lexer {
  position = 0;

  constructor(readonly bytes: Uint8Array) {}

  private skipSpace(): void {
    const { bytes } = this;
    while (this.position < bytes.length) {
      const byte = bytes[this.position] as number;
      if (isWhitespace(byte)) this.position += 1;
      else if (byte === Char.Percent) {
        while (this.position < bytes.length && bytes[this.position] !== Char.LineFeed && bytes[this.position] !== Char.Return) this.position += 1;
      } else return;
    }
  }

  next(): Token | null {
    this.skipSpace();
    const { bytes } = this;
    const start = this.position;
    if (start >= bytes.length) return null;
    const byte = bytes[start] as number;
    switch (byte) {
      case Char.ParenOpen:
        return { kind: 'value', value: this.literalString(), start };
      case Char.Less:
        if (bytes[start + 1] === Char.Less) {
          this.position += 2;
          return { kind: 'open-dict', start };
        }
        return { kind: 'value', value: this.hexString(), start };
      case Char.Greater:
        if (bytes[start + 1] === Char.Greater) {
          this.position += 2;
          return { kind: 'close-dict', start };
        }
        throw new ContentSyntaxError(`unexpected ">" at byte ${start}`);
      case Char.BracketOpen:
        this.position += 1;
        return { kind: 'open-array', start };
      case Char.BracketClose:
        this.position += 1;
        return { kind: 'close-array', start };
      case Char.Slash:
        return { kind: 'value', value: this.name(), start };
      case Char.ParenClose:
        throw new ContentSyntaxError(`unexpected ")" at byte ${start}`);
      case Char.BraceOpen:
      case Char.BraceClose:
        this.position += 1;
        return { kind: 'keyword', value: String.fromCharCode(byte), start };
      default: {
        let end = start;
        while (end < bytes.length && isRegular(bytes[end] as number)) end += 1;
        this.position = end;
        const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
        if (NUMBER.test(text)) return { kind: 'value', value: { type: 'number', value: Number(text) }, start };
        if (text === 'true' || text === 'false') return { kind: 'value', value: { type: 'boolean', value: text === 'true' }, start };
        if (text === 'null') return { kind: 'value', value: { type: 'null' }, start };
        return { kind: 'keyword', value: text, start };
      }
    }
  }

  private name(): Operand {
    const { bytes } = this;
    let end = this.position + 1;
    const out: number[] = [];
    while (end < bytes.length && isRegular(bytes[end] as number)) {
      const byte = bytes[end] as number;
      if (byte === Char.Hash && end + 2 < bytes.length && hexValue(bytes[end + 1] ?? 0) >= 0 && hexValue(bytes[end + 2] ?? 0) >= 0) {
        out.push(hexValue(bytes[end + 1] as number) * 16 + hexValue(bytes[end + 2] as number));
        end += 3;
      } else {
        out.push(byte);
        end += 1;
      }
    }
    this.position = end;
    return { type: 'name', value: Buffer.from(out).toString('latin1') };
  }

  private literalString(): Operand {
    const { bytes } = this;
    const out: number[] = [];
    let depth = 1;
    let index = this.position + 1;
    while (index < bytes.length) {
      const byte = bytes[index] as number;
      if (byte === Char.Backslash) {
        const next = bytes[index + 1];
        index += 2;
        switch (next) {
          case undefined:
            throw new ContentSyntaxError('unterminated string');
          case 0x6e:
            out.push(Char.LineFeed);
            break;
          case 0x72:
            out.push(Char.Return);
            break;
          case 0x74:
            out.push(Char.Tab);
            break;
          case 0x62:
            out.push(0x08);
            break;
          case 0x66:
            out.push(Char.FormFeed);
            break;
          case Char.Return:
            // A backslash before an end of line continues the string on the next line.
            if (bytes[index] === Char.LineFeed) index += 1;
            break;
          case Char.LineFeed:
            break;
          default:
            if (next >= 0x30 && next <= 0x37) {
              let value = next - 0x30;
              for (let digits = 1; digits < 3 && (bytes[index] ?? 0) >= 0x30 && (bytes[index] ?? 0) <= 0x37; digits += 1) {
                value = value * 8 + ((bytes[index] as number) - 0x30);
                index += 1;
              }
              out.push(value & 0xff);
            } else out.push(next);
        }
        continue;
      }
      if (byte === Char.ParenOpen) depth += 1;
      else if (byte === Char.ParenClose) {
        depth -= 1;
        if (depth === 0) {
          this.position = index + 1;
          return { type: 'string', bytes: Uint8Array.from(out), hex: false };
        }
      } else if (byte === Char.Return) {
        // An unescaped end of line in a string is read as a single line feed.
        out.push(Char.LineFeed);
        index += bytes[index + 1] === Char.LineFeed ? 2 : 1;
        continue;
      }
      out.push(byte);
      index += 1;
    }
    throw new ContentSyntaxError('unterminated string');
  }

  private hexString(): Operand {
    const { bytes } = this;
    const out: number[] = [];
    let high = -1;
    let index = this.position + 1;
    for (; index < bytes.length; index += 1) {
      const byte = bytes[index] as number;
      if (byte === Char.Greater) break;
      if (isWhitespace(byte)) continue;
      const value = hexValue(byte);
      if (value < 0) throw new ContentSyntaxError(`bad hex string at byte ${index}`);
      if (high < 0) high = value;
      else {
        out.push(high * 16 + value);
        high = -1;
      }
    }
    if (index >= bytes.length) throw new ContentSyntaxError('unterminated hex string');
    if (high >= 0) out.push(high * 16);
    this.position = index + 1;
    return { type: 'string', bytes: Uint8Array.from(out), hex: true };
  }

  /** Inline image data after ID: up to the EI that ends it; returns the position after EI. */
  inlineImageEnd(dict: Map<string, Operand>): number {
    const { bytes } = this;
    // One white-space byte separates ID from the data.
    const dataStart = this.position + 1;
    const known = exactImageLength(dict);
    if (known !== null) {
      let at = dataStart + known;
      while (at < bytes.length && isWhitespace(bytes[at] as number)) at += 1;
      if (bytes[at] === 0x45 && bytes[at + 1] === 0x49 && endsToken(bytes, at + 2)) return at + 2;
    }
    for (let at = dataStart; at + 1 < bytes.length; at += 1) {
      if (bytes[at] !== 0x45 || bytes[at + 1] !== 0x49) continue;
      if (at > dataStart && !isWhitespace(bytes[at - 1] as number)) continue;
      if (!endsToken(bytes, at + 2) || !plausibleContent(bytes, at + 2)) continue;
      return at + 2;
    }
    throw new ContentSyntaxError('inline image without EI');
  }
}

function endsToken(bytes: Uint8Array, at: number): boolean {
  return at >= bytes.length || isWhitespace(bytes[at] as number) || isDelimiter(bytes[at] as number);
}

/** After a real EI comes content again: printable ASCII and white space, not image bytes. */
function plausibleContent(bytes: Uint8Array, from: number): boolean {
  const end = Math.min(bytes.length, from + 64);
  for (let at = from; at < end; at += 1) {
    const byte = bytes[at] as number;
    if (!isWhitespace(byte) && (byte < 0x20 || byte > 0x7e)) return false;
  }
  return true;
}

const COMPONENTS: Record<string, number> = { G: 1, DeviceGray: 1, CalGray: 1, RGB: 3, DeviceRGB: 3, CalRGB: 3, CMYK: 4, DeviceCMYK: 4, I: 1, Indexed: 1 };

/** Length of unfiltered inline image data (or /L when given); null when it cannot be known. */
function exactImageLength(dict: Map<string, Operand>): number | null {
  const get = (short: string, long: string) => dict.get(short) ?? dict.get(long);
  const length = get('L', 'Length');
  if (length?.type === 'number') return length.value;
  if (get('F', 'Filter')) return null;
  const width = get('W', 'Width');
  const height = get('H', 'Height');
  if (width?.type !== 'number' || height?.type !== 'number') return null;
  const mask = get('IM', 'ImageMask');
  let components = 1;
  let bits = 1;
  if (!(mask?.type === 'boolean' && mask.value)) {
    const bpc = get('BPC', 'BitsPerComponent');
    const space = get('CS', 'ColorSpace');
    if (bpc?.type !== 'number') return null;
    bits = bpc.value;
    if (space?.type === 'name' && COMPONENTS[space.value] !== undefined) components = COMPONENTS[space.value] as number;
    else if (space?.type === 'array' && space.items[0]?.type === 'name' && ['I', 'Indexed'].includes(space.items[0].value)) components = 1;
    else return null;
  }
  return Math.ceil((width.value * components * bits) / 8) * height.value;
}

/**
 * Splits content into operations. Operands left without an operator at the end are ignored (kept as trailing
 * bytes); unbalanced arrays or dictionaries and unterminated strings throw ContentSyntaxError.
 */
export function parseContent(bytes: Uint8Array): Operation[] {
  const lexer = new Lexer(bytes);
  const operations: Operation[] = [];
  let operands: Operand[] = [];
  let start = -1;
  // Open arrays and dictionaries: their items so far, and for dictionaries the pending key.
  const stack: { kind: 'array' | 'dict'; items: Operand[] }[] = [];

  const push = (value: Operand) => {
    const top = stack.at(-1);
    if (top) top.items.push(value);
    else operands.push(value);
  };

  for (let token = lexer.next(); token; token = lexer.next()) {
    if (start < 0) start = token.start;
    switch (token.kind) {
      case 'value':
        push(token.value);
        break;
      case 'open-array':
        stack.push({ kind: 'array', items: [] });
        break;
      case 'open-dict':
        stack.push({ kind: 'dict', items: [] });
        break;
      case 'close-array': {
        const top = stack.pop();
        if (top?.kind !== 'array') throw new ContentSyntaxError(`unbalanced "]" at byte ${token.start}`);
        push({ type: 'array', items: top.items });
        break;
      }
      case 'close-dict': {
        const top = stack.pop();
        if (top?.kind !== 'dict') throw new ContentSyntaxError(`unbalanced ">>" at byte ${token.start}`);
        push({ type: 'dict', entries: dictOf(top.items) });
        break;
      }
      case 'keyword': {
        if (stack.length > 0) throw new ContentSyntaxError(`operator ${token.value} inside an array or dictionary`);
        if (token.value === 'BI') {
          const dictItems: Operand[] = [];
          for (;;) {
            const entry = lexer.next();
            if (!entry) throw new ContentSyntaxError('inline image without ID');
            if (entry.kind === 'keyword' && entry.value === 'ID') break;
            if (entry.kind === 'value') dictItems.push(entry.value);
            else if (entry.kind === 'open-array') dictItems.push(readArray(lexer));
            else if (entry.kind === 'open-dict') dictItems.push(readDict(lexer));
            else throw new ContentSyntaxError('unexpected token in an inline image dictionary');
          }
          const image = dictOf(dictItems);
          lexer.position = lexer.inlineImageEnd(image);
          operations.push({ operator: 'BI', operands, start, end: lexer.position, image });
        } else {
          operations.push({ operator: token.value, operands, start, end: lexer.position });
        }
        operands = [];
        start = -1;
        break;
      }
    }
  }
  if (stack.length > 0) throw new ContentSyntaxError('unterminated array or dictionary');
  return operations;
}

/** Arrays inside inline image dictionaries (e.g. /Decode [1 0]). */
function readArray(lexer: Lexer): Operand {
  const items: Operand[] = [];
  for (;;) {
    const token = lexer.next();
    if (!token) throw new ContentSyntaxError('unterminated array');
    if (token.kind === 'close-array') return { type: 'array', items };
    if (token.kind === 'value') items.push(token.value);
    else if (token.kind === 'open-array') items.push(readArray(lexer));
    else if (token.kind === 'open-dict') items.push(readDict(lexer));
    else throw new ContentSyntaxError('unexpected token in an array');
  }
}

/** A dictionary inside an inline image's (its /DecodeParms, e.g. `/DP << /K -1 >>`). */
function readDict(lexer: Lexer): Operand {
  const items: Operand[] = [];
  for (;;) {
    const token = lexer.next();
    if (!token) throw new ContentSyntaxError('unterminated dictionary');
    if (token.kind === 'close-dict') return { type: 'dict', entries: dictOf(items) };
    if (token.kind === 'value') items.push(token.value);
    else if (token.kind === 'open-array') items.push(readArray(lexer));
    else if (token.kind === 'open-dict') items.push(readDict(lexer));
    else throw new ContentSyntaxError('unexpected token in a dictionary');
  }
}

function dictOf(items: readonly Operand[]): Map<string, Operand> {
  const entries = new Map<string, Operand>();
  for (let index = 0; index + 1 < items.length; index += 2) {
    const key = items[index] as Operand;
    if (key.type !== 'name') throw new ContentSyntaxError('a dictionary key is not a name');
    entries.set(key.value, items[index + 1] as Operand);
  }
  if (items.length % 2 !== 0) throw new ContentSyntaxError('a dictionary key has no value');
  return entries;
}
