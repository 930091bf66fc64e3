import { PDFName, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import type { StampPlan } from '../../main/common/export-tasks.js';

// Page stamps (Bates numbers). A stamp never covers content: each page grows a margin below its displayed
// bottom edge (under /Rotate too) and the stamp is printed there; the page's own drawing is clipped to its old
// visible area, so nothing that lay outside it (hidden by the crop box) becomes visible in the new margin.

export function stampText(plan: Pick<StampPlan, 'prefix' | 'digits'>, number: number): string {
  return `${plan.prefix}${String(number).padStart(plan.digits, '0')}`;
}

function num(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

/** The visible area (crop box within the media box) in user space: [x0, y0, x1, y1]. */
function visibleArea(page: PDFPage): [number, number, number, number] {
  const media = page.getMediaBox();
  const crop = page.getCropBox();
  const x0 = Math.max(media.x, crop.x);
  const y0 = Math.max(media.y, crop.y);
  const x1 = Math.min(media.x + media.width, crop.x + crop.width);
  const y1 = Math.min(media.y + media.height, crop.y + crop.height);
  return [x0, y0, Math.max(x0 + 1, x1), Math.max(y0 + 1, y1)];
}

/** Height of the added margin for a font size. */
export function marginFor(fontSize: number): number {
  return Math.ceil(fontSize * 2.4);
}

/**
 * Stamps one page: grows the margin, clips the old drawing to the old visible area and prints `text` upright
 * as displayed, at the plan's position within the margin.
 */
export function stampPage(out: PDFDocument, font: PDFFont, page: PDFPage, text: string, plan: Pick<StampPlan, 'position' | 'fontSize'>): void {
  const [x0, y0, x1, y1] = visibleArea(page);
  const rotate = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const margin = marginFor(plan.fontSize);
  const grown = { x0, y0, x1, y1 };
  if (rotate === 0) grown.y0 -= margin;
  else if (rotate === 90) grown.x1 += margin;
  else if (rotate === 180) grown.y1 += margin;
  else grown.x0 -= margin;
  const clip = `q ${num(x0)} ${num(y0)} ${num(x1 - x0)} ${num(y1 - y0)} re W n\n`;
  page.node.wrapContentStreams(out.context.register(out.context.stream(clip)), out.context.register(out.context.stream('\nQ')));
  page.setMediaBox(grown.x0, grown.y0, grown.x1 - grown.x0, grown.y1 - grown.y0);
  page.setCropBox(grown.x0, grown.y0, grown.x1 - grown.x0, grown.y1 - grown.y0);
  for (const name of ['BleedBox', 'TrimBox', 'ArtBox']) page.node.delete(PDFName.of(name));
  // Displayed frame: width along the displayed bottom edge; the text's origin in it, then mapped to user space.
  const width = rotate === 0 || rotate === 180 ? grown.x1 - grown.x0 : grown.y1 - grown.y0;
  const textWidth = font.widthOfTextAtSize(text, plan.fontSize);
  const inset = 18;
  const dx = plan.position === 'bottom_left' ? inset : plan.position === 'bottom_center' ? (width - textWidth) / 2 : width - inset - textWidth;
  const dy = (margin - plan.fontSize * 0.7) / 2;
  const [ux, uy] =
    rotate === 0 ? [grown.x0 + dx, grown.y0 + dy] : rotate === 90 ? [grown.x1 - dy, grown.y0 + dx] : rotate === 180 ? [grown.x1 - dx, grown.y1 - dy] : [grown.x0 + dy, grown.y1 - dx];
  const cos = Math.round(Math.cos((rotate * Math.PI) / 180));
  const sin = Math.round(Math.sin((rotate * Math.PI) / 180));
  const fontName = page.node.newFontDictionary('Stamp', font.ref).decodeText();
  const ops = `q 0 g BT /${fontName} ${num(plan.fontSize)} Tf ${cos} ${sin} ${-sin} ${cos} ${num(ux)} ${num(uy)} Tm ${font.encodeText(text).toString()} Tj ET Q`;
  page.node.addContentStream(out.context.register(out.context.flateStream(ops)));
}
