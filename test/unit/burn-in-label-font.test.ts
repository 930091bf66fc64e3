import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { addLabelFont } from '../../worker/burn-in/vector/redact.js';

// The exemption labels' font is one object a document: readers load a font once per object (pdf.js by
// reference), and a dictionary written into each page made every page's labels a font of its own. Read back
// with qpdf, an independent reader.
describe('labels font', () => {
  it('is one indirect object shared by every page of a document that draws labels', async () => {
    const doc = await PDFDocument.create();
    for (let page = 0; page < 3; page += 1) doc.addPage([612, 792]);
    for (const page of doc.getPages()) addLabelFont(doc.context, page.node.Resources() ?? page.node.normalizedEntries().Resources, 'ObscuraLabel');
    const other = await PDFDocument.create();
    other.addPage([612, 792]);
    addLabelFont(other.context, other.getPage(0).node.normalizedEntries().Resources, 'ObscuraLabel');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-label-font-'));
    try {
      const file = path.join(dir, 'labels.pdf');
      fs.writeFileSync(file, await doc.save({ useObjectStreams: false }));
      const json = JSON.parse(execFileSync('qpdf', ['--json=1', '--json-key=pages', '--json-key=objects', file], { encoding: 'utf8' })) as {
        pages: { object: string }[];
        objects: Record<string, { '/Resources'?: { '/Font'?: Record<string, unknown> } | string; '/BaseFont'?: string }>;
      };
      const resourcesOf = (ref: string) => {
        const resources = json.objects[ref]?.['/Resources'];
        return typeof resources === 'string' ? json.objects[resources] : resources;
      };
      const labelFonts = json.pages.map((page) => (resourcesOf(page.object) as { '/Font'?: Record<string, unknown> } | undefined)?.['/Font']?.['/ObscuraLabel']);
      expect(labelFonts).toHaveLength(3);
      // Each page names the font by reference, and all by the same one: Helvetica-Bold.
      for (const font of labelFonts) expect(font).toMatch(/^\d+ 0 R$/);
      expect(new Set(labelFonts).size).toBe(1);
      expect(json.objects[labelFonts[0] as string]?.['/BaseFont']).toBe('/Helvetica-Bold');
      // Another document gets an object of its own (one per document, never a reference into another file).
      const fonts = other.context.lookup(other.getPage(0).node.Resources()?.get(PDFName.of('Font')), PDFDict);
      const own = other.context.lookup(fonts.get(PDFName.of('ObscuraLabel')), PDFDict);
      expect(own.get(PDFName.of('BaseFont'))).toBe(PDFName.of('Helvetica-Bold'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
