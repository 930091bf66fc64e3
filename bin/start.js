#!/usr/bin/env node
// `npm start`: the desktop app when an Electron binary is installed, otherwise the headless server
// on the per-user data directory, printing the URL of the web UI.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function electronBinary() {
  try {
    // The electron package exports the path of its downloaded binary, and throws when there is none.
    const binary = createRequire(import.meta.url)('electron');
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = process.env.OBSCURA_HEADLESS ? null : electronBinary();
if (binary) {
  const child = spawn(binary, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
} else {
  console.log('Electron is not installed here; starting the headless server instead.');
  const { main } = await import('../dist/main/cli/index.js');
  process.exitCode = await main(['serve', ...process.argv.slice(2)]);
}
