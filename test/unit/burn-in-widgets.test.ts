import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFRef, PDFStream, PDFString, StandardFonts } from 'pdf-lib';
import { boxedRelease, popplerText } from '../helpers/burn-producers.js';
import { differingPixels, render } from '../helpers/vector-pdfs.js';

// Form fields on a page with a box. A field without an appearance stream, value, border or background draws
// nothing in any viewer, so it no longer forces the page to be rendered; one with a value is drawn by viewers
// from the value (made up), so that page still is. Under NeedAppearances, empty fields keep their stored look.
// Oracles: poppler's pdftotext (-bbox) and pdftoppm.

interface FormSpec {
  /** The field's value; none when undefined. */
  value?: string;
  /** Keep pdf-lib's appearance stream (else it is removed). */
  appearance?: boolean;
  needAppearances?: boolean;
  /** Replaces the stored appearance's content (its form dictionary kept). */
  appearanceContent?: string;
  /** Bottom of the field (default 600: away from the boxed line at 700). */
  fieldY?: number;
}

async function formPdf(spec: FormSpec): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Keepword Secretword Otherword', { x: 72, y: 700, size: 14, font });
  page.drawText('A line below the field stays as it is', { x: 72, y: 560, size: 12, font });
  const field = doc.getForm().createTextField('applicant');
  if (spec.value !== undefined) field.setText(spec.value);
  field.addToPage(page, { x: 72, y: spec.fieldY ?? 600, width: 220, height: 22, borderWidth: 0, backgroundColor: undefined, borderColor: undefined, font });
  const widget = field.acroField.getWidgets()[0];
  if (!widget) throw new Error('no widget');
  if (!spec.appearance) widget.dict.delete(PDFName.of('AP'));
  if (spec.appearanceContent !== undefined) {
    const normal = widget.getNormalAppearance();
    const ref = normal instanceof PDFRef ? normal : null;
    const old = ref ? doc.context.lookup(ref) : null;
    if (!ref || !(old instanceof PDFStream)) throw new Error('no normal appearance stream');
    doc.context.assign(ref, doc.context.flateStream(spec.appearanceContent, Object.fromEntries([...old.dict.entries()].filter(([key]) => !['Length', 'Filter'].includes(key.decodeText())).map(([key, value]) => [key.decodeText(), value]))));
  }
  // pdf-lib records a border and background look by default; viewers draw those without an appearance too.
  widget.dict.delete(PDFName.of('MK'));
  if (spec.needAppearances) doc.getForm().acroForm.dict.set(PDFName.of('NeedAppearances'), doc.context.obj(true));
  if (spec.value !== undefined) field.acroField.dict.set(PDFName.of('V'), PDFString.of(spec.value));
  return Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
}

describe('form fields and content redaction', () => {
  it('an empty field without an appearance: the page is redacted in its content, everything outside the box unchanged', async () => {
    const source = await formPdf({});
    const { bytes, page, drawn } = await boxedRelease(source);
    expect(page.method, JSON.stringify(page)).toBe('vector');
    const text = popplerText(bytes);
    expect(text).not.toContain('Secretword');
    expect(text).toMatch(/Keepword +Otherword/);
    expect(text).toContain('A line below the field stays as it is');
    expect(differingPixels(render(source), render(bytes), 792, drawn, 1)).toBe(0);
  }, 60_000);

  it('a field with a value but no appearance is drawn by viewers from the value: the page is still rendered, with the reason', async () => {
    const source = await formPdf({ value: 'Filled by the applicant' });
    const { page } = await boxedRelease(source);
    expect(page.method).toBe('raster');
    expect(page.method === 'raster' && page.fallback).toMatch(/Widget annotation has no appearance stream/);
  }, 60_000);

  it('NeedAppearances with empty fields: the stored appearances are drawn, the page redacted in its content', async () => {
    const source = await formPdf({ appearance: true, needAppearances: true });
    const { bytes, page, drawn } = await boxedRelease(source);
    expect(page.method, JSON.stringify(page)).toBe('vector');
    expect(popplerText(bytes)).not.toContain('Secretword');
    expect(differingPixels(render(source), render(bytes), 792, drawn, 1)).toBe(0);
  }, 60_000);

  it('NeedAppearances with a filled field: viewers make its look up, the page is rendered', async () => {
    const source = await formPdf({ value: 'Filled by the applicant', appearance: true, needAppearances: true });
    const { page } = await boxedRelease(source);
    expect(page.method).toBe('raster');
    expect(page.method === 'raster' && page.fallback).toMatch(/NeedAppearances/);
  }, 60_000);

  it('a stored appearance that shows an empty string in an unnamed font ("/ 12 Tf <> Tj", as some form tools write) is drawn, not refused', async () => {
    // The field lies over the boxed line, so its appearance is taken apart with the page.
    const source = await formPdf({ appearance: true, fieldY: 694, appearanceContent: '/Tx BMC BT / 12 Tf 2 6 Td <> Tj ET EMC' });
    const { bytes, page, drawn } = await boxedRelease(source);
    expect(page.method, JSON.stringify(page)).toBe('vector');
    expect(popplerText(bytes)).not.toContain('Secretword');
    expect(differingPixels(render(source), render(bytes), 792, drawn, 1)).toBe(0);
  }, 60_000);
});
