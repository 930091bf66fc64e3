#!/usr/bin/env node
// Draws resources/icon.png (512×512 RGBA): a white page with black redaction bars on a slate rounded
// square. No dependencies: pixels are computed here and encoded as PNG with node:zlib.
// Run: node resources/make-icon.mjs  (electron-builder derives the platform icon formats from it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const SIZE = 512;
const pixels = Buffer.alloc(SIZE * SIZE * 4);

function blend(x, y, [r, g, b], alpha) {
  if (x < 0 || y < 0 || x >= SIZE || y >= SIZE || alpha <= 0) return;
  const i = (y * SIZE + x) * 4;
  const a = Math.min(1, alpha);
  const dstA = pixels[i + 3] / 255;
  const outA = a + dstA * (1 - a);
  for (const [k, c] of [[0, r], [1, g], [2, b]]) {
    pixels[i + k] = Math.round((c * a + pixels[i + k] * dstA * (1 - a)) / (outA || 1));
  }
  pixels[i + 3] = Math.round(outA * 255);
}

/** Anti-aliased rounded rectangle, coverage from the signed distance to its edge. */
function roundedRect(x0, y0, x1, y1, radius, color) {
  for (let y = Math.floor(y0) - 1; y <= Math.ceil(y1) + 1; y += 1) {
    for (let x = Math.floor(x0) - 1; x <= Math.ceil(x1) + 1; x += 1) {
      const px = x + 0.5;
      const py = y + 0.5;
      // Signed distance to a rounded box: negative inside, positive outside.
      const dx = Math.abs(px - (x0 + x1) / 2) - ((x1 - x0) / 2 - radius);
      const dy = Math.abs(py - (y0 + y1) / 2) - ((y1 - y0) / 2 - radius);
      const distance = Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - radius;
      blend(x, y, color, 0.5 - distance);
    }
  }
}

const slate = [0x24, 0x2a, 0x33];
const paper = [0xf4, 0xf1, 0xea];
const ink = [0x9a, 0xa0, 0xa8];
const bar = [0x0d, 0x0f, 0x12];
const accent = [0xd9, 0x48, 0x3b];

roundedRect(16, 16, 496, 496, 96, slate);
// The page, with a folded corner cut out in the accent colour.
roundedRect(128, 80, 384, 432, 18, paper);
roundedRect(322, 80, 384, 142, 6, accent);
// Text lines, some of them redacted.
const lines = [
  [160, 176, 300, false],
  [160, 216, 350, true],
  [160, 256, 352, false],
  [160, 296, 270, true],
  [160, 336, 352, false],
  [160, 376, 320, true],
];
for (const [x0, y, x1, redacted] of lines) {
  if (redacted) roundedRect(x0 - 4, y - 12, x1 + 4, y + 12, 4, bar);
  else roundedRect(x0, y - 5, x1, y + 5, 5, ink);
}

function crc32(buffer) {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // colour type RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y += 1) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  pixels.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
}
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'icon.png');
fs.writeFileSync(out, png);
console.log(`wrote ${out} (${SIZE}×${SIZE}, ${png.length} bytes)`);
