import { z } from 'zod';
import type { BurnBox, BurnPageRequest, BurnSettings } from '../../common/export-tasks.js';
import type { ExportOptions } from '../../common/schemas/exports.js';
import { PageWord } from '../../common/schemas/pages.js';
import type { DocumentPageRow } from '../../db/schema.js';
import type { Box } from '../../services/redactions/model.js';
import { exemptionOf } from '../../services/releases/material.js';

// What a burn task is asked to burn: the box requests of a document's pages and the exemption label of each
// box. Exports and the page preview both build them here, so a preview shows exactly what an export burns.

const PageWords = z.array(PageWord);

export function settingsOf(options: ExportOptions): BurnSettings {
  return { dpi: options.dpi, padding: options.padding, labels: options.labels, imageMode: options.image_mode, jpegQuality: options.jpeg_quality, method: options.method };
}

/** The organization's exemption codes, longest first (so a sub-code wins over its parent). */
export type ExemptionCodes = readonly { code: string }[];

/** The label is the box's own exemption code (an organization code, sub-codes included), else its layer's. */
export function burnBox(box: Box, labels: boolean, exemptions: ExemptionCodes): BurnBox {
  return { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2, points: box.points, label: labels ? exemptionOf(box, exemptions) : null, id: box.redactionId };
}

/** A document's boxes that apply and its stored page words (either may be cut down to the pages wanted). */
export interface RequestInput {
  applied: readonly Box[];
  pages: readonly Pick<DocumentPageRow, 'page_number' | 'unit' | 'words'>[];
}

/** The burn requests of one document: pages with applied boxes (images: also pages with stored words). */
export function requestsOf(document: RequestInput, isImage: boolean, labels: boolean, exemptions: ExemptionCodes, skip: ReadonlySet<number>): BurnPageRequest[] {
  const unit = isImage ? 'image_pixels' : 'pdf_points';
  const wordsByPage = new Map(document.pages.filter((page) => page.unit === unit).map((page) => [page.page_number, page.words]));
  const boxesByPage = new Map<number, BurnBox[]>();
  for (const box of document.applied) {
    if ((box.source === 'image') !== isImage) continue;
    boxesByPage.set(box.page, [...(boxesByPage.get(box.page) ?? []), burnBox(box, labels, exemptions)]);
  }
  const pages = new Set([...boxesByPage.keys(), ...(isImage ? wordsByPage.keys() : [])].filter((page) => !skip.has(page)));
  return [...pages]
    .sort((a, b) => a - b)
    .map((page) => {
      const words = wordsByPage.get(page);
      return { page, boxes: boxesByPage.get(page) ?? [], words: words === undefined ? null : PageWords.parse(JSON.parse(words)) };
    });
}
