import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(root, '../dist/renderer');
const pdfjsDir = path.resolve(root, '../node_modules/pdfjs-dist');

/**
 * pdf.js fetches character maps, the 14 standard fonts and its WebAssembly image decoders at run time; they
 * are copied next to the build (dist/renderer/pdfjs/) so the app works offline from its own origin.
 */
function pdfjsAssets(): Plugin {
  return {
    name: 'obscura-pdfjs-assets',
    apply: 'build',
    closeBundle() {
      for (const folder of ['cmaps', 'standard_fonts', 'wasm']) {
        fs.cpSync(path.join(pdfjsDir, folder), path.join(outDir, 'pdfjs', folder), { recursive: true });
      }
    },
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [react(), pdfjsAssets()],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    // pdf.js is one large module by nature; the rest of the app is small.
    chunkSizeWarningLimit: 1500,
  },
});
