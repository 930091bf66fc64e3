import fsp from 'node:fs/promises';

// fsync helpers shared by the blob store and the watched folders' outputs: a file's bytes, then the directory
// entry a rename made, reach the disk before the step is recorded as done.

export async function fsyncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function fsyncDirectory(dir: string): Promise<void> {
  // Windows cannot open directories for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
