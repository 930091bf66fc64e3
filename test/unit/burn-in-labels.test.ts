import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { paintBoxes } from '../../worker/burn-in/raster.js';

// Box labels are drawn with the bundled font by name. With a generic family, fontconfig on a machine with
// LibreOffice installed picked OpenSymbol (no letters) and "(b)(6)" printed as "(▯)(6)". Native tesseract
// (an independent reader) reads the label back.
describe('box labels', () => {
  it('print every letter of the exemption code, whatever fonts the machine has', () => {
    const canvas = createCanvas(900, 240);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 900, 240);
    const box = { x1: 20, y1: 20, x2: 880, y2: 220, points: [], label: '(b)(7)(C) bad' };
    paintBoxes(context, [box], { toPixel: (x, y) => [x, y], padding: 0, pixelsPerUnit: 4, labels: true, rotate: 0 });
    // White on black: invert for the reader.
    const image = context.getImageData(0, 0, 900, 240);
    for (let index = 0; index < image.data.length; index += 4) for (let channel = 0; channel < 3; channel += 1) image.data[index + channel] = 255 - (image.data[index + channel] ?? 0);
    context.putImageData(image, 0, 0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-label-'));
    try {
      const file = path.join(dir, 'label.png');
      fs.writeFileSync(file, canvas.toBuffer('image/png'));
      const read = execFileSync('tesseract', [file, '-', '--psm', '7'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      expect(read.replace(/\s+/g, ' ').trim()).toContain('(b)(7)(C) bad');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
