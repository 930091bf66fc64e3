import { FIDELITY_DPI, TOLERANCES } from '../fidelity/index.js';

// Checks a lossy candidate against the canvas before it may be used, stricter than the fidelity check: no cell
// may differ at all (the check allows 24); palettes and JPEG are measured on 100 dpi cells at the vector
// tolerance (64; the check averages raster pages to 50 dpi at 96), the 1-bit threshold on the check's own cells;
// no visible ink may vanish (thin light strokes that cell averages miss); a JPEG's box pixels must decode black.

/** A box's pixel rectangle on the canvas (inclusive-exclusive). */
export interface PixelRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Grey of an RGBA pixel, weighted as the fidelity renderer weights it. */
export function greyOf(value: number): number {
  return ((value & 0xff) * 77 + ((value >>> 8) & 0xff) * 150 + ((value >>> 16) & 0xff) * 29) >>> 8;
}

export interface Measure {
  cellDpi: number;
  grey: number;
}

/** 100 dpi cells, the vector tolerance: for palettes and JPEG. */
export const STRICT: Measure = { cellDpi: FIDELITY_DPI, grey: TOLERANCES.vector.grey };
/** The raster check's own cells and grey (50 dpi, 96): thresholding to 1 bit moves every glyph edge, as it always has. */
export const THRESHOLD: Measure = { cellDpi: FIDELITY_DPI / 2, grey: TOLERANCES.raster.grey };

/**
 * Number of cells whose average grey differs by more than the tolerance between the canvas and a
 * candidate (`grey(index)` gives the candidate's grey of canvas pixel `index`).
 */
export function differingCells(pixels: Uint32Array, width: number, height: number, dpi: number, grey: (index: number) => number, measure: Measure = STRICT): number {
  const cell = Math.max(1, Math.round(dpi / measure.cellDpi));
  const limit = measure.grey;
  let differing = 0;
  for (let top = 0; top < height; top += cell) {
    for (let left = 0; left < width; left += cell) {
      let before = 0;
      let after = 0;
      let count = 0;
      for (let y = top; y < Math.min(height, top + cell); y += 1) {
        for (let x = left; x < Math.min(width, left + cell); x += 1) {
          const index = y * width + x;
          before += greyOf(pixels[index] as number);
          after += grey(index);
          count += 1;
        }
      }
      if (Math.abs(before - after) > limit * count) differing += 1;
    }
  }
  return differing;
}

/**
 * A box pixel may decode to at most this in any channel. Boxes are painted before encoding, so nothing under them
 * is in the JPEG at all; what JPEG adds is ringing from the visible pixels beside an edge, up to about 30 within
 * 8 pixels of a bright photo edge at any quality (measured), 2 further in: 32 of 255 reads as black.
 */
export const BOX_BLACK = 32;

/** Whether every pixel painted black inside a box's rectangle is still black (≤ BOX_BLACK) in the decoded candidate. */
export function boxesStayBlack(pixels: Uint32Array, decoded: Uint32Array, width: number, height: number, boxes: readonly PixelRect[]): boolean {
  for (const box of boxes) {
    for (let y = Math.max(0, box.top); y < Math.min(height, box.bottom); y += 1) {
      for (let x = Math.max(0, box.left); x < Math.min(width, box.right); x += 1) {
        const index = y * width + x;
        if (((pixels[index] as number) & 0xffffff) !== 0) continue;
        const value = decoded[index] as number;
        if ((value & 0xff) > BOX_BLACK || ((value >>> 8) & 0xff) > BOX_BLACK || ((value >>> 16) & 0xff) > BOX_BLACK) return false;
      }
    }
  }
  return true;
}

/** Grey darker than this is visible ink on paper. */
export const VISIBLE = 208;

/**
 * Cells (100 dpi) holding visible ink in the canvas with no ink of the candidate in them or next to them: ink a
 * threshold or palette erased (light grey text, faint rules), which cell averages over thin strokes can miss.
 */
export function erasedInkCells(pixels: Uint32Array, width: number, height: number, dpi: number, inked: (index: number) => boolean): number {
  const cell = Math.max(1, Math.round(dpi / FIDELITY_DPI));
  const columns = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const ink = new Uint8Array(columns * rows);
  const kept = new Uint8Array(columns * rows);
  for (let y = 0; y < height; y += 1) {
    const row = Math.floor(y / cell) * columns;
    for (let x = 0; x < width; x += 1) {
      const index = y * width + x;
      const value = pixels[index] as number;
      if (value === -1 || value === 0xffffffff) continue;
      const at = row + Math.floor(x / cell);
      if (greyOf(value) < VISIBLE) ink[at] = 1;
      if (inked(index)) kept[at] = 1;
    }
  }
  let erased = 0;
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      if (!ink[row * columns + column]) continue;
      let near = false;
      for (let dy = -1; dy <= 1 && !near; dy += 1) {
        for (let dx = -1; dx <= 1 && !near; dx += 1) {
          const r = row + dy;
          const c = column + dx;
          if (r >= 0 && r < rows && c >= 0 && c < columns && kept[r * columns + c]) near = true;
        }
      }
      if (!near) erased += 1;
    }
  }
  return erased;
}
