import { degrees, PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ocrLayerPdf } from '../helpers/adversarial-pdfs.js';
import { popplerText, release, SETTINGS } from '../helpers/burn-producers.js';

// A scan stored sideways and shown upright by /Rotate, its OCR layer drawn turned in user space (as scanners and
// OCR tools write them): the rendered release's text layer is written turned too, word by word, so readers find
// the same words, with their spaces, as in the source. Before, each turned glyph became a word of its own.

async function turnedScan(): Promise<Buffer> {
  const source = await ocrLayerPdf();
  const doc = await PDFDocument.create();
  const [embedded] = await doc.embedPdf(source.bytes, [0]);
  if (!embedded) throw new Error('no page to embed');
  const page = doc.addPage([embedded.height, embedded.width]);
  // Content turned a quarter counterclockwise; /Rotate 270 turns the page back upright for the reader.
  page.drawPage(embedded, { x: embedded.height, y: 0, rotate: degrees(90) });
  page.setRotation(degrees(270));
  return Buffer.from(await doc.save());
}

const words = (text: string) => text.split(/\s+/u).filter((word) => /\p{L}{3}/u.test(word));

describe('turned text in a rendered page’s layer', () => {
  it('a sideways scan’s OCR layer reads as the source reads, word for word', async () => {
    const source = await turnedScan();
    const expected = words(popplerText(source));
    expect(expected).toEqual(expect.arrayContaining(['record', 'scanned', 'permit']));
    // A box in a corner, away from the text, and the page rendered.
    const corner = { x1: 2, y1: 2, x2: 6, y2: 6, points: [], label: null };
    const { bytes, pages } = await release(source, new Map([[1, [corner]]]), { ...SETTINGS, method: 'raster' });
    expect(pages[0]?.method).toBe('raster');
    expect(words(popplerText(bytes))).toEqual(expected);
  }, 180_000);
});
