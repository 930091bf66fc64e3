import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failureDetail } from '../../main/jobs/failure-detail.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'failure-detail-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('failureDetail', () => {
  it('shows paths inside the data directory relative to it, every time they occur', () => {
    const dataDir = path.join(root, 'data (office).v2');
    fs.mkdirSync(dataDir);
    const blob = path.join(dataDir, 'blobs', 'sha256', 'ab', 'cdef');
    const error = new Error(`ENOENT: no such file or directory, open '${blob}' (copying ${blob} to ${dataDir}/tmp)`);
    const detail = failureDetail(error, dataDir);
    expect(detail).toBe(`ENOENT: no such file or directory, open '<data dir>/blobs/sha256/ab/cdef' (copying <data dir>/blobs/sha256/ab/cdef to <data dir>/tmp)`);
    expect(detail).not.toContain(root);
  });

  it('also hides the directory reached through a symbolic link, and a trailing separator changes nothing', () => {
    const real = path.join(root, 'real');
    const link = path.join(root, 'link');
    fs.mkdirSync(real);
    fs.symlinkSync(real, link);
    expect(failureDetail(new Error(`cannot read ${real}/x.pdf`), `${link}/`)).toBe('cannot read <data dir>/x.pdf');
    expect(failureDetail(new Error(`cannot read ${link}/x.pdf`), link)).toBe('cannot read <data dir>/x.pdf');
  });

  it('leaves other text alone and reads thrown non-errors', () => {
    expect(failureDetail(new Error('the PDF is encrypted'), path.join(root, 'missing'))).toBe('the PDF is encrypted');
    expect(failureDetail('tesseract could not read the image', root)).toBe('tesseract could not read the image');
    expect(failureDetail(new Error('/ is the root'), '/')).toBe('/ is the root');
  });
});
