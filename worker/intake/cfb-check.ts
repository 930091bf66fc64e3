// msgreader's CFB reader follows sector chains and directory links until an end marker, so a crafted file with
// a cycle (or a link to a free sector) makes it loop and grow without bound. This checks, before it reads a file,
// that every chain it walks ends within the file and the directory tree has no cycle ([MS-CFB] 2.2-2.6).

const END = 0xfffffffe;
const NONE = 0xffffffff;

/** Throws a short message when `bytes` is a compound file the reader could not walk safely. */
export function checkCompoundFile(bytes: Buffer): void {
  const fail = (why: string): never => {
    throw new Error(`not a readable OLE compound file (${why})`);
  };
  if (bytes.length < 512) fail('shorter than its header');
  const shift = bytes.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) fail(`sector shift ${shift}`);
  const size = 1 << shift;
  const sectors = Math.floor((bytes.length - size + size - 1) / size);
  const sector = (n: number) => {
    const start = (n + 1) * size;
    if (n >= sectors) fail(`sector ${n} outside the file`);
    return bytes.subarray(start, Math.min(bytes.length, start + size));
  };
  const u32s = (buffer: Buffer) => Array.from({ length: buffer.length >> 2 }, (_, i) => buffer.readUInt32LE(i * 4));

  // The FAT: its sectors are listed in the header's DIFAT, then in a chain of DIFAT sectors.
  const fatCount = bytes.readUInt32LE(0x2c);
  if (fatCount > sectors) fail('more FAT sectors than sectors');
  const fatSectors = u32s(bytes.subarray(0x4c, 0x200)).slice(0, Math.min(fatCount, 109));
  let difat = bytes.readUInt32LE(0x44);
  for (let hops = 0; fatSectors.length < fatCount; hops += 1) {
    if (difat === END || difat === NONE || hops > sectors) fail('DIFAT chain');
    const entries = u32s(sector(difat));
    fatSectors.push(...entries.slice(0, -1).slice(0, fatCount - fatSectors.length));
    difat = entries[entries.length - 1] ?? END;
  }
  const fat = fatSectors.flatMap((n) => u32s(sector(n)));
  const chain = (start: number, table: number[], what: string): number[] => {
    const out: number[] = [];
    for (let next = start; next !== END; next = table[next] as number) {
      if (next >= table.length || out.length >= table.length) fail(`${what} chain`);
      out.push(next);
    }
    return out;
  };

  const directory = Buffer.concat(chain(bytes.readUInt32LE(0x30), fat, 'directory').map(sector));
  const count = directory.length >> 7;
  const entry = (i: number) => directory.subarray(i * 128, i * 128 + 128);
  if (count === 0) fail('no directory');
  const root = entry(0);
  if (root.readUInt32LE(0x78) > bytes.length) fail('mini stream size');
  if (root.readUInt32LE(0x78) > 0) chain(root.readUInt32LE(0x74), fat, 'mini stream');
  const miniFat = chain(bytes.readUInt32LE(0x3c), fat, 'mini FAT').flatMap((n) => u32s(sector(n)));

  // The tree: every entry reached once at most, streams no larger than the file, small streams' chains ending.
  const seen = new Set<number>();
  const pending = [root.readUInt32LE(0x4c)];
  while (pending.length > 0) {
    const i = pending.pop() as number;
    if (i === NONE) continue;
    if (i >= count || seen.has(i)) fail('directory tree');
    seen.add(i);
    const e = entry(i);
    const type = e.readUInt8(0x42);
    const length = e.readUInt32LE(0x78);
    if (type === 2) {
      if (length > bytes.length) fail('stream size');
      if (length > 0 && length < 4096) chain(e.readUInt32LE(0x74), miniFat, 'mini');
    }
    pending.push(e.readUInt32LE(0x44), e.readUInt32LE(0x48), type === 1 ? e.readUInt32LE(0x4c) : NONE);
  }
}
