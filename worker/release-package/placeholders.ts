import { rgb, type PDFDocument, type PDFFont } from 'pdf-lib';

// The page that stands for pages withheld in full. It is drawn from nothing but the exemption and the page
// numbers: the withheld pages are never opened, rendered or copied.

export function placeholderWording(exemption: string, from: number, to: number): { title: string; pages: string } {
  return { title: `Withheld in full under ${exemption}`, pages: from === to ? `Page ${from} of this document` : `Pages ${from}-${to} of this document` };
}

export function addPlaceholderPage(out: PDFDocument, font: PDFFont, bold: PDFFont, exemption: string, from: number, to: number): void {
  const page = out.addPage([612, 792]);
  const wording = placeholderWording(exemption, from, to);
  page.drawRectangle({ x: 72, y: 300, width: 468, height: 192, borderColor: rgb(0, 0, 0), borderWidth: 1.5 });
  const center = (text: string, y: number, size: number, face: PDFFont) => page.drawText(text, { x: 306 - face.widthOfTextAtSize(text, size) / 2, y, size, font: face, color: rgb(0, 0, 0) });
  center(wording.title, 410, 20, bold);
  center(wording.pages, 370, 13, font);
}
