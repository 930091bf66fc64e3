// Classic TIFF (version 42) and BigTIFF (version 43) chain the same directories of the same tags; only the widths
// differ: offsets, an entry's value field and the link to the next directory take 4 or 8 bytes, a directory's entry
// count 2 or 8, an entry 12 or 20. Both TIFF readers (OCR's page copier and the PDF wrapper) walk either layout
// through this one description. No Node APIs: the viewer loads it in the browser.

export interface TiffLayout {
  readonly little: boolean;
  readonly bigTiff: boolean;
  /** Offsets, an entry's value field and a directory's link to the next one. */
  readonly offsetSize: 4 | 8;
  /** A directory's number of entries. */
  readonly countSize: 2 | 8;
  readonly entrySize: 12 | 20;
}

const CLASSIC_LAYOUT = { bigTiff: false, offsetSize: 4, countSize: 2, entrySize: 12 } as const;
const BIG_LAYOUT = { bigTiff: true, offsetSize: 8, countSize: 8, entrySize: 20 } as const;

/** Bytes per value of each field type; LONG8, SLONG8 and IFD8 (16 to 18) are BigTIFF's. */
export const TYPE_SIZE: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8 };

/** Types whose values point at other directories (sub-images, EXIF): never needed to read a page. */
export const IFD_TYPES: ReadonlySet<number> = new Set([13, 18]);

/** libtiff's sanity bound on a directory's entries (a BigTIFF's count is 8 bytes wide): more is a damaged file. */
export const MAX_ENTRIES = 0xffff;

/** Bytes enough for either header. */
export const HEADER_BYTES = 16;

export class TiffView {
  private readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly layout: TiffLayout,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u16(at: number): number {
    return this.view.getUint16(at, this.layout.little);
  }
  u32(at: number): number {
    return this.view.getUint32(at, this.layout.little);
  }
  /** Past 2^53 the value is rounded: only offsets and counts far beyond the end of any file get there, and fail as such. */
  u64(at: number): number {
    return Number(this.view.getBigUint64(at, this.layout.little));
  }
  offset(at: number): number {
    return this.layout.offsetSize === 8 ? this.u64(at) : this.u32(at);
  }
  count(at: number): number {
    return this.layout.countSize === 8 ? this.u64(at) : this.u16(at);
  }
  putOffset(at: number, value: number): void {
    if (this.layout.offsetSize === 8) this.view.setBigUint64(at, BigInt(value), this.layout.little);
    else this.view.setUint32(at, value, this.layout.little);
  }
  /** `count` values of `type` from `at`: integers and unsigned rationals (as their quotient); none for other types. */
  numbers(type: number, at: number, count: number): number[] {
    const read = this.reader(type, at);
    return read ? Array.from({ length: count }, (_, index) => read(index)) : [];
  }
  private reader(type: number, at: number): ((index: number) => number) | null {
    const { view } = this;
    const { little } = this.layout;
    switch (type) {
      case 1: // BYTE
      case 2: // ASCII
      case 7: // UNDEFINED
        return (index) => view.getUint8(at + index);
      case 6:
        return (index) => view.getInt8(at + index);
      case 3:
        return (index) => view.getUint16(at + index * 2, little);
      case 8:
        return (index) => view.getInt16(at + index * 2, little);
      case 4: // LONG
      case 13: // IFD
        return (index) => view.getUint32(at + index * 4, little);
      case 9:
        return (index) => view.getInt32(at + index * 4, little);
      case 5:
        return (index) => view.getUint32(at + index * 8, little) / (view.getUint32(at + index * 8 + 4, little) || 1);
      case 16: // LONG8
      case 18: // IFD8
        return (index) => this.u64(at + index * 8);
      case 17:
        return (index) => Number(view.getBigInt64(at + index * 8, little));
      default:
        return null;
    }
  }
}

/** Where the first directory is, and the layout of all of them. */
export interface TiffHeader {
  layout: TiffLayout;
  firstDirectory: number;
}

/**
 * The header of `bytes` (the file's first bytes, HEADER_BYTES or all of a shorter file); null when they do not
 * start with a byte-order mark and version 42 or 43 (not a TIFF, or another variant). A BigTIFF header that is
 * cut short or gives other than 8-byte offsets is an error, as libtiff makes it.
 */
export function readTiffHeader(bytes: Uint8Array): TiffHeader | null {
  if (bytes.length < 8) return null;
  const order = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0);
  if (order !== 'II' && order !== 'MM') return null;
  const little = order === 'II';
  const version = new TiffView(bytes, { little, ...CLASSIC_LAYOUT }).u16(2);
  if (version === 42) {
    const layout = { little, ...CLASSIC_LAYOUT };
    return { layout, firstDirectory: new TiffView(bytes, layout).offset(4) };
  }
  if (version !== 43) return null;
  if (bytes.length < 16) throw new Error('the BigTIFF is truncated: its header is shorter than 16 bytes');
  const layout = { little, ...BIG_LAYOUT };
  const view = new TiffView(bytes, layout);
  const offsetSize = view.u16(4);
  if (offsetSize !== 8 || view.u16(6) !== 0) throw new Error(`not a valid BigTIFF: its header gives offsets of ${offsetSize} bytes (8 expected)`);
  return { layout, firstDirectory: view.offset(8) };
}

export interface TiffEntry {
  tag: number;
  type: number;
  count: number;
  /** The entry's value field as stored (4 or 8 bytes): the values themselves when they fit, else their offset. */
  field: Uint8Array;
}

export const valueSize = (entry: TiffEntry): number => (TYPE_SIZE[entry.type] ?? 0) * entry.count;

/** Whether the entry's values sit in its own value field rather than elsewhere in the file. */
export const valuesInline = (entry: TiffEntry, layout: TiffLayout): boolean => valueSize(entry) <= layout.offsetSize;

/** The file offset of the entry's values, for values that do not fit in its field. */
export const valuesOffset = (entry: TiffEntry, layout: TiffLayout): number => new TiffView(entry.field, layout).offset(0);

/** Bytes of a directory after its entry count: the count's entries and the link to the next directory. */
export const directoryBodySize = (count: number, layout: TiffLayout): number => count * layout.entrySize + layout.offsetSize;

/** Checks a directory's entry count against libtiff's bound (a damaged offset often lands on a huge one). */
export function checkEntryCount(count: number, offset: number): void {
  if (count > MAX_ENTRIES) throw new Error(`the TIFF directory at byte ${offset} claims ${count} entries (at most ${MAX_ENTRIES}): the file is damaged`);
}

/** The entries of a directory body (as `directoryBodySize` measures it) starting at `at`, and the next link. */
export function directoryEntries(view: TiffView, at: number, count: number): { entries: TiffEntry[]; next: number } {
  const { entrySize, offsetSize } = view.layout;
  const entries: TiffEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = at + index * entrySize;
    const fieldAt = start + entrySize - offsetSize;
    entries.push({ tag: view.u16(start), type: view.u16(start + 2), count: view.layout.bigTiff ? view.u64(start + 4) : view.u32(start + 4), field: view.bytes.subarray(fieldAt, fieldAt + offsetSize) });
  }
  return { entries, next: view.offset(at + count * entrySize) };
}
