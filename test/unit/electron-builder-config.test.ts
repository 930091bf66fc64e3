// electron-builder is not installed here, so its configuration is checked against the installed packages:
// every native addon and every file the OCR and PDF workers read by path must be unpacked from app.asar.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/process.js';

const config = fs.readFileSync(path.join(PROJECT_ROOT, 'electron-builder.yml'), 'utf8');

/** The items of a top-level YAML list (`key:` followed by `  - item` lines), comments skipped. */
function topLevelList(key: string): string[] {
  const lines = config.split('\n');
  const start = lines.findIndex((line) => line === `${key}:`);
  if (start < 0) return [];
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const match = /^\s+-\s+(.+?)\s*$/.exec(line);
    if (match?.[1]) items.push(match[1].replace(/^"(.*)"$/, '$1'));
  }
  return items;
}

/** The section of a top-level key, as text. */
function section(key: string): string {
  const match = new RegExp(`^${key}:\\n((?:[ #].*\\n|\\n)*)`, 'm').exec(config);
  return match?.[1] ?? '';
}

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index]!;
    if (glob.startsWith('**/', index)) {
      source += '(?:.*/)?';
      index += 2;
    } else if (glob.startsWith('**', index)) {
      source += '.*';
      index += 1;
    } else if (char === '*') source += '[^/]*';
    else source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const unpack = topLevelList('asarUnpack').map(globToRegExp);
const isUnpacked = (relative: string) => unpack.some((pattern) => pattern.test(relative));

/** Production dependencies, transitively, as folders under node_modules (the flat npm layout). */
function productionPackages(): Set<string> {
  const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const seen = new Set<string>();
  const queue = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {}).filter((name) => name !== 'electron')];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    const file = path.join(PROJECT_ROOT, 'node_modules', name, 'package.json');
    if (!fs.existsSync(file)) continue; // an optional dependency of another platform
    seen.add(name);
    const child = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>;
    queue.push(...Object.keys(child.dependencies ?? {}), ...Object.keys(child.optionalDependencies ?? {}));
  }
  return seen;
}

function filesUnder(dir: string, keep: (file: string) => boolean, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(full, keep, found);
    else if (keep(entry.name)) found.push(full);
  }
  return found;
}

describe('electron-builder.yml', () => {
  it('builds AppImage and deb for Linux, NSIS for Windows, dmg for macOS', () => {
    expect(section('linux')).toMatch(/target:\s*\n\s+- AppImage\s*\n\s+- deb/);
    expect(section('win')).toMatch(/target:\s*\n\s+- nsis/);
    expect(section('mac')).toMatch(/target:\s*\n\s+- dmg/);
    expect(config).toMatch(/^npmRebuild: true$/m);
  });

  it('packs the compiled app, the renderer and the workers, and never the npm electron package', () => {
    const files = topLevelList('files');
    for (const required of ['package.json', 'dist/main/**/*', 'dist/worker/**/*', 'dist/renderer/**/*']) expect(files).toContain(required);
    expect(files).toContain('!node_modules/electron/**/*');
  });

  it('unpacks every native addon of the production dependencies', () => {
    const packages = productionPackages();
    expect(packages.has('better-sqlite3')).toBe(true);
    const addons = [...packages].flatMap((name) => filesUnder(path.join(PROJECT_ROOT, 'node_modules', name), (file) => file.endsWith('.node')));
    expect(addons.some((file) => file.includes('better_sqlite3.node'))).toBe(true);
    expect(addons.some((file) => file.includes('@napi-rs') && file.includes('skia'))).toBe(true);
    for (const addon of addons) expect(isUnpacked(path.relative(PROJECT_ROOT, addon).split(path.sep).join('/')), addon).toBe(true);
  });

  it('ships the OCR language data and the engine files unpacked, and names only packages that exist', () => {
    const data = 'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz';
    expect(fs.existsSync(path.join(PROJECT_ROOT, data))).toBe(true);
    expect(productionPackages().has('@tesseract.js-data/eng')).toBe(true);
    expect(isUnpacked(data)).toBe(true);
    // The default model lives in resources/, which must be both packaged and unpacked.
    const fast = 'resources/tessdata/fast/eng.traineddata.gz';
    expect(fs.existsSync(path.join(PROJECT_ROOT, fast))).toBe(true);
    expect(isUnpacked(fast)).toBe(true);
    expect(topLevelList('files').map(globToRegExp).some((pattern) => pattern.test(fast))).toBe(true);
    const wasm = fs.readdirSync(path.join(PROJECT_ROOT, 'node_modules/tesseract.js-core')).filter((file) => file.endsWith('.wasm'));
    expect(wasm.length).toBeGreaterThan(0);
    for (const file of wasm) expect(isUnpacked(`node_modules/tesseract.js-core/${file}`)).toBe(true);
    expect(isUnpacked('node_modules/tesseract.js/src/worker-script/node/index.js')).toBe(true);
    expect(isUnpacked('node_modules/pdfjs-dist/standard_fonts/FoxitSans.pfb')).toBe(true);
    for (const pattern of topLevelList('asarUnpack')) {
      const literal = /^node_modules\/((?:@[^/*]+\/)?[^/*]+)\//.exec(pattern)?.[1];
      if (literal) expect(fs.existsSync(path.join(PROJECT_ROOT, 'node_modules', literal)), pattern).toBe(true);
    }
    // The rest of the app stays inside the archive.
    expect(isUnpacked('dist/main/serve.js')).toBe(false);
    expect(isUnpacked('node_modules/fastify/fastify.js')).toBe(false);
  });
});
