// Browser-side helpers: real drag-and-drop of files and drawing with the mouse on a page of the viewer.
import type { Locator, Page } from '@playwright/test';
import { PAGE } from './pdfs.js';

/** Drops files on an element the way a file manager does: dragenter/dragover/drop with a DataTransfer. */
export async function dropFiles(page: Page, target: Locator, files: { name: string; type: string; bytes: Buffer }[]): Promise<void> {
  const payload = files.map((file) => ({ name: file.name, type: file.type, base64: file.bytes.toString('base64') }));
  const dataTransfer = await page.evaluateHandle((entries) => {
    const transfer = new DataTransfer();
    for (const entry of entries) {
      const bytes = Uint8Array.from(atob(entry.base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], entry.name, { type: entry.type }));
    }
    return transfer;
  }, payload);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Screen position of a point given in PDF points (origin bottom-left) on the shown page (unrotated). */
export async function screenPoint(overlay: Locator, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = await overlay.boundingBox();
  if (!box) throw new Error('the page overlay is not visible');
  const scale = box.width / PAGE.width;
  return { x: box.x + x * scale, y: box.y + (PAGE.height - y) * scale };
}

/** Drags a rectangle between two PDF-space corners. */
export async function dragBox(page: Page, overlay: Locator, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  const start = await screenPoint(overlay, from.x, from.y);
  const end = await screenPoint(overlay, to.x, to.y);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 4 });
  await page.mouse.move(end.x, end.y, { steps: 4 });
  await page.mouse.up();
}
