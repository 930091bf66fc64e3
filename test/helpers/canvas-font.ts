import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';

// Fixtures draw text with the bundled DejaVu Sans by name. A generic `sans-serif` goes through fontconfig,
// which on a machine with LibreOffice installed picks OpenSymbol (no letters), so "scans" came out as boxes.
const FAMILY = 'Obscura Test Sans';
let registered = false;

/** The canvas family to draw fixture text with. */
export function testSans(): string {
  if (!registered) {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    GlobalFonts.registerFromPath(path.join(root, 'resources', 'fonts', 'DejaVuSans.ttf'), FAMILY);
    registered = true;
  }
  return `"${FAMILY}"`;
}
