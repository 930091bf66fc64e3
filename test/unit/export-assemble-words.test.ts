import { describe, expect, it } from 'vitest';
import type { AssembleDocument, ExportAssembleResult, ExportAssembleTask, PageCheck } from '../../main/common/export-tasks.js';
import { assembleOne } from '../../main/jobs/export/assemble.js';
import type { BuildContext } from '../../main/jobs/export/context.js';

// Issue 29: a page redacted in its content carries its kept words for its check only; they do not travel to the
// assembly task and back (two copies of about 35 KB a page) but rejoin the page's check on the main thread.

const word = (text: string) => ({ text, x1: 1, y1: 2, x2: 3, y2: 4 });

describe('assembly of pages redacted in their content', () => {
  it('sends their words nowhere and gives each check its own page\'s words back; rendered pages keep theirs', async () => {
    const sent: ExportAssembleTask[] = [];
    const pool = {
      size: 2,
      run: async (task: ExportAssembleTask): Promise<ExportAssembleResult> => {
        sent.push(structuredClone(task));
        // As the worker does: each burned page's check carries the words it was given.
        const checks = task.documents.flatMap((document) =>
          document.burned.map((page, index): PageCheck => ({ outputPage: index + 1, label: `p${page.page}`, words: page.words, withheld: [], certify: { documentId: document.source.documentId, page: page.page, sourcePath: document.source.path, sourceType: 'pdf', method: page.method === 'vector' ? 'vector' : 'raster', drawn: [], fallback: null } }) as unknown as PageCheck),
        );
        return { kind: 'export-assemble', sha256: 'x', size: 1, pages: checks.length, checks, layout: [] };
      },
    };
    const ctx = { pool, signal: new AbortController().signal, workPrefix: '/tmp/w' } as unknown as BuildContext;
    const documents = [
      {
        source: { documentId: 4, path: '/s4.pdf', documentType: 'pdf' },
        pageCount: 3,
        burned: [
          { method: 'vector', page: 1, words: [word('Alpha'), word('Beta')] },
          { method: 'raster', page: 2, words: [word('Gamma')] },
          { method: 'vector', page: 3, words: [word('Delta')] },
        ],
      },
    ] as unknown as AssembleDocument[];
    const result = await assembleOne(ctx, { row: { id: 9 } } as never, '/tmp/out.pdf', documents, null, { dpi: 100, padding: 1, labels: false, imageMode: 'auto', jpegQuality: 80, method: 'auto' }, () => undefined);
    expect(sent[0]?.documents[0]?.burned.map((page) => page.words.map((entry) => entry.text))).toEqual([[], ['Gamma'], []]);
    expect(result.checks.map((check) => check.words.map((entry) => entry.text))).toEqual([['Alpha', 'Beta'], ['Gamma'], ['Delta']]);
    // The caller's pages are not changed.
    expect(documents[0]?.burned[0]?.words).toHaveLength(2);
  });
});
