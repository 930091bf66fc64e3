import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { renderAreas } from '../../worker/burn-in/fidelity/pixels.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { pagePdf, standardFont } from '../helpers/vector-pdfs.js';

// The fidelity check draws the operator list it read (burn-in/display-list.ts) instead of letting pdf.js build a
// second one for the canvas. That leans on pdf.js's per-intent state of a page: these tests fail if it changes.

const DPI = 100;

async function page(blend: boolean): Promise<Buffer> {
  const content = [
    'BT /F1 14 Tf 72 700 Td (Keepword and Otherword) Tj ET',
    ...(blend ? ['q /GS1 gs 0.2 0.6 0.9 rg 60 680 220 40 re f Q'] : ['0.2 0.6 0.9 rg 60 600 220 40 re f']),
    'q 40 0 0 40 300 500 cm /I1 Do Q',
  ].join('\n');
  return pagePdf({
    content,
    resources: (doc) => ({
      Font: { F1: standardFont('Helvetica') },
      ...(blend && { ExtGState: { GS1: doc.context.obj({ BM: 'Multiply', ca: 0.7 }) } }),
      XObject: { I1: doc.context.register(doc.context.stream(new Uint8Array(4 * 4 * 3).map((_, index) => (index * 53) % 256), { Type: 'XObject', Subtype: 'Image', Width: 4, Height: 4, ColorSpace: 'DeviceRGB', BitsPerComponent: 8 })) },
    }),
  });
}

interface Internals {
  _pumpOperatorList(args: unknown): void;
  _intentStates: Map<string, { displayReadyCapability?: { promise: Promise<boolean> } }>;
}

/** Counts the operator lists pdf.js asks its worker part for on this page. */
function countLists(pdfPage: PDFPageProxy): { count: number } {
  const internals = pdfPage as unknown as Internals;
  const counter = { count: 0 };
  const pump = internals._pumpOperatorList.bind(pdfPage);
  internals._pumpOperatorList = (args) => {
    counter.count += 1;
    pump(args);
  };
  return counter;
}

describe('fidelity: drawing the list read', () => {
  for (const blend of [false, true]) {
    it(`builds one operator list for reading and drawing, with the same pixels (${blend ? 'a blend mode: transparency group' : 'no transparency group'})`, async () => {
      const bytes = await page(blend);
      const reference = await openPdf(bytes);
      const document = await openPdf(bytes);
      try {
        const area = { x1: 0, y1: 0, x2: 612, y2: 792 };
        const [own] = await renderAreas(reference, await reference.getPage(1), [area], DPI);
        const pdfPage = await document.getPage(1);
        const lists = countLists(pdfPage);
        const [fromRead] = await renderAreas(document, pdfPage, [area], DPI, undefined, true);
        // One list: the one getOperatorList built, which the rendering drew.
        expect(lists.count).toBe(1);
        const drawn = [...(pdfPage as unknown as Internals)._intentStates.values()].find((state) => state.displayReadyCapability);
        // pdf.js's own answer for the page (its StartRenderPage message), kept from the list read.
        expect(await drawn?.displayReadyCapability?.promise).toBe(blend);
        expect(fromRead?.width).toBe(own?.width);
        expect(Buffer.from(fromRead?.pixels ?? []).equals(Buffer.from(own?.pixels ?? []))).toBe(true);
        // Some ink was drawn: the comparison is not of two blank canvases.
        expect(fromRead?.pixels.some((value) => value < 128)).toBe(true);
      } finally {
        await reference.destroy();
        await document.destroy();
      }
    });
  }

  it('without the list read drawn, pdf.js builds a second list (what the test above counts is real)', async () => {
    const document = await openPdf(await page(false));
    try {
      const pdfPage = await document.getPage(1);
      const lists = countLists(pdfPage);
      await pdfPage.getOperatorList({ intent: 'display', annotationMode: 1 });
      await renderAreas(document, pdfPage, [{ x1: 0, y1: 0, x2: 612, y2: 792 }], DPI);
      expect(lists.count).toBe(2);
    } finally {
      await document.destroy();
    }
  });
});
