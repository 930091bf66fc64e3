// CCITT Group 4 (ITU-T T.6) encoder for 1-bit page images. Black-and-white pages are the common case of a
// release (memos, forms, scans) and G4 stores them several times smaller than JPEG or Flate, in a filter every
// PDF reader decodes (/CCITTFaxDecode, K -1).

type Code = readonly [bits: number, length: number];

function code(bits: string): Code {
  return [parseInt(bits, 2), bits.length];
}

const WHITE_TERMINATING = [
  '00110101', '000111', '0111', '1000', '1011', '1100', '1110', '1111', '10011', '10100', '00111', '01000', '001000', '000011', '110100', '110101',
  '101010', '101011', '0100111', '0001100', '0001000', '0010111', '0000011', '0000100', '0101000', '0101011', '0010011', '0100100', '0011000', '00000010', '00000011', '00011010',
  '00011011', '00010010', '00010011', '00010100', '00010101', '00010110', '00010111', '00101000', '00101001', '00101010', '00101011', '00101100', '00101101', '00000100', '00000101', '00001010',
  '00001011', '01010010', '01010011', '01010100', '01010101', '00100100', '00100101', '01011000', '01011001', '01011010', '01011011', '01001010', '01001011', '00110010', '00110011', '00110100',
].map(code);

const BLACK_TERMINATING = [
  '0000110111', '010', '11', '10', '011', '0011', '0010', '00011', '000101', '000100', '0000100', '0000101', '0000111', '00000100', '00000111', '000011000',
  '0000010111', '0000011000', '0000001000', '00001100111', '00001101000', '00001101100', '00000110111', '00000101000', '00000010111', '00000011000', '000011001010', '000011001011', '000011001100', '000011001101', '000001101000', '000001101001',
  '000001101010', '000001101011', '000011010010', '000011010011', '000011010100', '000011010101', '000011010110', '000011010111', '000001101100', '000001101101', '000011011010', '000011011011', '000001010100', '000001010101', '000001010110', '000001010111',
  '000001100100', '000001100101', '000001010010', '000001010011', '000000100100', '000000110111', '000000111000', '000000100111', '000000101000', '000001011000', '000001011001', '000000101011', '000000101100', '000001011010', '000001100110', '000001100111',
].map(code);

/** Make-up codes for 64, 128, …, 1728. */
const WHITE_MAKEUP = [
  '11011', '10010', '010111', '0110111', '00110110', '00110111', '01100100', '01100101', '01101000', '01100111', '011001100', '011001101', '011010010', '011010011',
  '011010100', '011010101', '011010110', '011010111', '011011000', '011011001', '011011010', '011011011', '010011000', '010011001', '010011010', '011000', '010011011',
].map(code);

const BLACK_MAKEUP = [
  '0000001111', '000011001000', '000011001001', '000001011011', '000000110011', '000000110100', '000000110101', '0000001101100', '0000001101101', '0000001001010', '0000001001011',
  '0000001001100', '0000001001101', '0000001110010', '0000001110011', '0000001110100', '0000001110101', '0000001110110', '0000001110111', '0000001010010', '0000001010011',
  '0000001010100', '0000001010101', '0000001011010', '0000001011011', '0000001100100', '0000001100101',
].map(code);

/** Make-up codes for 1792, 1856, …, 2560, shared by both colours. */
const EXTENDED_MAKEUP = [
  '00000001000', '00000001100', '00000001101', '000000010010', '000000010011', '000000010100', '000000010101', '000000010110', '000000010111', '000000011100',
  '000000011101', '000000011110', '000000011111',
].map(code);

/** The code tables, for tests (each colour's set must be prefix-free). */
export const CCITT_TABLES = { WHITE_TERMINATING, BLACK_TERMINATING, WHITE_MAKEUP, BLACK_MAKEUP, EXTENDED_MAKEUP };

const PASS = code('0001');
const HORIZONTAL = code('001');
/** Vertical modes for a1 - b1 = -3 … 3. */
const VERTICAL = ['0000010', '000010', '010', '1', '011', '000011', '0000011'].map(code);

class BitWriter {
  private buffer = new Uint8Array(64 * 1024);
  private length = 0;
  private accumulator = 0;
  private bits = 0;

  write([value, count]: Code): void {
    this.accumulator = (this.accumulator << count) | value;
    this.bits += count;
    while (this.bits >= 8) {
      this.bits -= 8;
      this.push((this.accumulator >>> this.bits) & 0xff);
    }
    this.accumulator &= (1 << this.bits) - 1;
  }

  private push(byte: number): void {
    if (this.length === this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = byte;
  }

  finish(): Uint8Array {
    if (this.bits > 0) this.push((this.accumulator << (8 - this.bits)) & 0xff);
    this.bits = 0;
    return this.buffer.slice(0, this.length);
  }
}

function writeRun(writer: BitWriter, length: number, black: boolean): void {
  let rest = length;
  while (rest >= 2560) {
    writer.write(EXTENDED_MAKEUP[12] as Code);
    rest -= 2560;
  }
  if (rest >= 64) {
    const makeup = Math.floor(rest / 64);
    if (makeup >= 28) writer.write(EXTENDED_MAKEUP[makeup - 28] as Code);
    else writer.write((black ? BLACK_MAKEUP : WHITE_MAKEUP)[makeup - 1] as Code);
    rest -= makeup * 64;
  }
  writer.write((black ? BLACK_TERMINATING : WHITE_TERMINATING)[rest] as Code);
}

/**
 * Encodes rows given as their changing elements: for each row, the ascending x positions where the colour
 * changes, the first one a change to black (the pixel before x = 0 counts as white). `rowChanges(y, out)`
 * fills `out` and returns how many it wrote.
 */
export function encodeG4(width: number, height: number, rowChanges: (y: number, out: Int32Array) => number): Uint8Array {
  const writer = new BitWriter();
  // Each list ends with two sentinels at `width`, so b1/b2/a1/a2 lookups never run past the end.
  let reference = new Int32Array(width + 3);
  let referenceCount = 0;
  reference[0] = width;
  reference[1] = width;
  let coding = new Int32Array(width + 3);
  for (let y = 0; y < height; y += 1) {
    const count = rowChanges(y, coding);
    coding[count] = width;
    coding[count + 1] = width;
    let a0 = -1;
    let black = false;
    let a1Index = 0;
    let b1Index = 0;
    for (;;) {
      // a1: first change on the coding line after a0. b1: first change on the reference line after a0 whose
      // colour is opposite to a0's, i.e. a change to black (even index) while a0 is white, to white (odd) otherwise.
      while (a1Index < count && (coding[a1Index] as number) <= a0) a1Index += 1;
      const a1 = coding[a1Index] as number;
      while (b1Index < referenceCount && ((reference[b1Index] as number) <= a0 || (b1Index & 1) !== (black ? 1 : 0))) b1Index += 1;
      const b1 = b1Index < referenceCount ? (reference[b1Index] as number) : width;
      const b2 = b1Index + 1 < referenceCount ? (reference[b1Index + 1] as number) : width;
      if (b2 < a1) {
        writer.write(PASS);
        a0 = b2;
        continue;
      }
      const delta = a1 - b1;
      if (delta >= -3 && delta <= 3) {
        writer.write(VERTICAL[delta + 3] as Code);
        a0 = a1;
        black = !black;
      } else {
        const a2 = coding[a1Index + 1] as number;
        writer.write(HORIZONTAL);
        writeRun(writer, a1 - Math.max(a0, 0), black);
        writeRun(writer, a2 - a1, !black);
        a0 = a2;
      }
      if (a0 >= width) break;
      // b1 for the next step lies after the new a0; the scan restarts a little before to respect colour parity.
      b1Index = Math.max(0, b1Index - 1);
    }
    const swap = reference;
    reference = coding;
    coding = swap;
    referenceCount = count;
  }
  // EOFB: two EOL codes.
  writer.write([1, 12]);
  writer.write([1, 12]);
  return writer.finish();
}
