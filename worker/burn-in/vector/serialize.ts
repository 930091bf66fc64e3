import type { Operand } from './tokens.js';

// Writing operands and operations back as content-stream bytes (only for operations that were rewritten).

/** A number without exponent, at most four decimals; content streams do not accept 1e-7. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e15) throw new RangeError(`cannot write ${value} in a content stream`);
  const rounded = Math.round(value * 10_000) / 10_000;
  if (Object.is(rounded, -0) || rounded === 0) return '0';
  if (Number.isInteger(rounded)) return String(rounded);
  return rounded.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
}

/** A number without exponent to about ten significant digits (matrix entries, where four decimals may not do). */
export function formatPrecise(value: number): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e15) throw new RangeError(`cannot write ${value} in a content stream`);
  if (Math.abs(value) < 1e-12) return '0';
  const decimals = Math.min(15, Math.max(4, 10 - Math.floor(Math.log10(Math.abs(value)))));
  const text = value.toFixed(decimals);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const REGULAR_NAME = /^[!-~]$/;

export function formatName(name: string): string {
  let out = '/';
  for (const char of name) {
    const code = char.charCodeAt(0);
    const special = '()<>[]{}/%#'.includes(char);
    out += REGULAR_NAME.test(char) && !special ? char : `#${(code & 0xff).toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** A literal string: parentheses and backslashes escaped, line ends as escapes (readers would normalise them). */
export function literalString(bytes: Uint8Array): Uint8Array {
  const out: number[] = [0x28];
  for (const byte of bytes) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out.push(0x5c, byte);
    else if (byte === 0x0a) out.push(0x5c, 0x6e);
    else if (byte === 0x0d) out.push(0x5c, 0x72);
    else out.push(byte);
  }
  out.push(0x29);
  return Uint8Array.from(out);
}

export function hexString(bytes: Uint8Array): Uint8Array {
  return Buffer.from(`<${Buffer.from(bytes).toString('hex')}>`, 'latin1');
}

/** Serialises one operand (strings as they came: literal or hex). */
export function operandBytes(operand: Operand): Uint8Array {
  switch (operand.type) {
    case 'number':
      return Buffer.from(formatNumber(operand.value), 'latin1');
    case 'name':
      return Buffer.from(formatName(operand.value), 'latin1');
    case 'string':
      return operand.hex ? hexString(operand.bytes) : literalString(operand.bytes);
    case 'boolean':
      return Buffer.from(String(operand.value), 'latin1');
    case 'null':
      return Buffer.from('null', 'latin1');
    case 'array':
      return join([Buffer.from('['), ...operand.items.map(operandBytes), Buffer.from(']')]);
    case 'dict':
      return join([Buffer.from('<<'), ...[...operand.entries].flatMap(([key, value]) => [Buffer.from(formatName(key), 'latin1'), operandBytes(value)]), Buffer.from('>>')]);
  }
}

/** Parts separated by single spaces. */
export function join(parts: readonly Uint8Array[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  parts.forEach((part, index) => {
    if (index > 0) chunks.push(SPACE);
    chunks.push(part);
  });
  return Buffer.concat(chunks);
}

const SPACE = Buffer.from(' ');

export function operationBytes(operands: readonly Operand[], operator: string): Uint8Array {
  return join([...operands.map(operandBytes), Buffer.from(operator, 'latin1')]);
}
