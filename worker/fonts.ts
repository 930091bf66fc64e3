import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';

// The fonts Obscura ships (resources/fonts, DejaVu: see its README). Text the product draws itself (box labels,
// rendered e-mail) uses them by name: a generic family such as `sans-serif` resolves through the machine's
// fontconfig, which can pick a symbol font with no letters (LibreOffice's OpenSymbol did: "(b)(6)" came out
// "(▯)(6)").

/** resources/fonts, found upwards from this module (sources, dist/, app.asar.unpacked). */
export function fontsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'resources', 'fonts');
    if (fs.existsSync(path.join(candidate, 'DejaVuSans.ttf'))) return candidate.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('resources/fonts/DejaVuSans.ttf not found: the package is incomplete; reinstall Obscura');
    dir = parent;
  }
}

/** The canvas family name of the bundled bold label font, registered on first use. */
export const LABEL_FONT_FAMILY = 'Obscura Label';
let labelFontRegistered = false;

export function ensureLabelFont(): string {
  if (!labelFontRegistered) {
    GlobalFonts.registerFromPath(path.join(fontsDir(), 'DejaVuSans-Bold.ttf'), LABEL_FONT_FAMILY);
    labelFontRegistered = true;
  }
  return LABEL_FONT_FAMILY;
}
