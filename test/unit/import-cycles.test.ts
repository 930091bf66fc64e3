import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 29 found export-build.ts and export-release.ts importing each other: a module half-initialised on the
// other's first import is an ordering bug waiting. Every relative import of main/ and worker/ (type imports too).
const ROOTS = ['main', 'worker'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.c?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path.resolve(full)] : [];
  });
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g)]
      .map((match) => path.resolve(path.dirname(file), (match[1] ?? '').replace(/\.c?js$/, (ext) => (ext === '.cjs' ? '.cts' : '.ts'))))
      .filter((target) => fs.existsSync(target));
    graph.set(file, targets);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('module structure', () => {
  it('the finder sees a planted circle', () => {
    const a = path.resolve('a.ts');
    const b = path.resolve('b.ts');
    expect(cycles(new Map([[a, [b]], [b, [a]]]))).toHaveLength(1);
  });

  it('no module of main/ or worker/ imports itself through others', () => {
    const files = ROOTS.flatMap((root) => sourceFiles(root));
    expect(files.length).toBeGreaterThan(300);
    const graph = importGraph(files);
    expect([...graph.values()].reduce((sum, targets) => sum + targets.length, 0)).toBeGreaterThan(1000);
    expect(cycles(graph).map((cycle) => cycle.map((file) => path.relative(process.cwd(), file)).join(' → '))).toEqual([]);
  });
});
