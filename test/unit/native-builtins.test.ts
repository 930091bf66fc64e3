import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// pdf.js's legacy build replaces Array.prototype.push with core-js's (30× slower) in every thread that loads it;
// the worker's entry keeps V8's and puts it back (worker/native-builtins.ts). Checked in a fresh process, as a
// worker thread loads it: push behaves as the engine's own after the entry and a first document are loaded.
const root = path.resolve(import.meta.dirname, '..', '..');
const script = `
const probe = () => { try { Object.defineProperty([], 'length', { writable: false }).push(); return 'no error'; } catch (error) { return error.constructor.name; } };
const pristine = probe();
await import('./worker/index.ts');
const { openPdf } = await import('./worker/burn-in/pdfjs.ts');
const { PDFDocument } = await import('pdf-lib');
const doc = await PDFDocument.create();
doc.addPage([200, 200]);
const pdf = await openPdf(await doc.save());
await (await pdf.getPage(1)).getOperatorList();
console.log(JSON.stringify({ pristine, after: probe(), works: [1, 2].concat([]).length === 2 && (() => { const a = []; a.push(1, 2, 3); return a.length; })() }));
await pdf.destroy();
process.exit(0);
`;

describe('native builtins in the worker', () => {
  it("keeps V8's Array.prototype.push once pdf.js and its worker part are loaded", () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { pristine: string; after: string; works: number };
    expect(result.after).toBe(result.pristine);
    expect(result.works).toBe(3);
  }, 90_000);

  it('core-js does replace it without the entry (the probe tells the two apart on this engine)', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `const probe = () => { try { Object.defineProperty([], 'length', { writable: false }).push(); return 'no error'; } catch (error) { return error.constructor.name; } }; const pristine = probe(); await import('pdfjs-dist/legacy/build/pdf.mjs'); console.log(JSON.stringify({ pristine, after: probe() }));`], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(out.trim()) as { pristine: string; after: string };
    // On an engine whose push already throws, core-js keeps it and the first test proves nothing more than this one.
    if (result.pristine === 'no error') expect(result.after).toBe('TypeError');
  }, 90_000);
});
