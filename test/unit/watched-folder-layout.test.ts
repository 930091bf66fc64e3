import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATTERNS } from '../../main/common/schemas/watched-folders.js';
import { FolderLayout, globToRegExp } from '../../main/jobs/watched-folders/layout.js';

describe('watched folder patterns and ignore rules', () => {
  it('globs match names case-insensitively; ** spans folders; classes work', () => {
    expect(globToRegExp('*.pdf').test('Scan 001.PDF')).toBe(true);
    expect(globToRegExp('*.pdf').test('a/b.pdf')).toBe(false);
    expect(globToRegExp('scan-??.tif').test('scan-07.tif')).toBe(true);
    expect(globToRegExp('scan-??.tif').test('scan-7.tif')).toBe(false);
    expect(globToRegExp('box [0-9]/*.pdf').test('box 3/a.pdf')).toBe(true);
    expect(globToRegExp('box [!0-9]/*.pdf').test('box 3/a.pdf')).toBe(false);
    expect(globToRegExp('incoming/**/*.pdf').test('incoming/a.pdf')).toBe(true);
    expect(globToRegExp('incoming/**/*.pdf').test('incoming/x/y/a.pdf')).toBe(true);
    expect(globToRegExp('a+b(1).pdf').test('a+b(1).pdf')).toBe(true);
  });

  it('takes matching files anywhere; never results, dotfiles, partial downloads or the output folder', () => {
    const root = path.resolve('/srv/inbox');
    const layout = new FolderLayout(root, [...DEFAULT_PATTERNS], path.join(root, 'release'));
    const accepted = ['a.pdf', 'sub/dir/b.JPG', 'c.tiff', 'processed.pdf', 'sub/processed/d.pdf'];
    const refused = [
      'notes.txt',
      'processed/2026-01-01/a.pdf',
      'failed/a.pdf',
      'failed/a.pdf.error.txt',
      'release/a.redacted.pdf',
      '.hidden.pdf',
      '.git/x.pdf',
      'x.pdf.part',
      'x.pdf.crdownload',
      '~$x.pdf',
      'x.pdf.tmp',
      'sub/.x.pdf.obscura-3.tmp',
    ];
    for (const relative of accepted) expect(layout.accepts(relative), relative).toBe(true);
    for (const relative of refused) expect(layout.accepts(relative), relative).toBe(false);
    expect(layout.relative(path.join(root, 'sub', 'b.pdf'))).toBe('sub/b.pdf');
    expect(layout.relative(root)).toBe('');
    expect(layout.relative(path.resolve('/srv/other/b.pdf'))).toBeNull();
    expect(layout.relative(path.resolve('/srv/inbox-2/b.pdf'))).toBeNull();
  });
});
