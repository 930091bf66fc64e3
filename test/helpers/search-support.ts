import { PDFDocument, StandardFonts } from 'pdf-lib';

// Fixtures for the search suites.

/** A one-page Letter PDF whose bytes differ by `label` (so no two are duplicates of each other). */
export async function tinyPdf(label: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([612, 792]).drawText(`fixture ${label}`, { x: 72, y: 72, size: 8, font });
  return Buffer.from(await document.save());
}
