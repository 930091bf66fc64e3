import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef } from 'pdf-lib';
import type { BurnBox } from '../../main/common/export-tasks.js';
import { assemble } from '../../worker/burn-in/assemble.js';
import { burnPages } from '../../worker/burn-in/burn.js';
import { structureProblems } from '../../worker/burn-in/sanitize.js';
import { bboxWords, boxOver, pdflatex, release, SETTINGS } from '../helpers/burn-producers.js';
import { qpdfExpanded } from '../helpers/pdf-tools.js';
import { tempDir } from '../helpers/temp.js';
import { box, differingPixels, render } from '../helpers/vector-pdfs.js';

// Links a release keeps: pdfTeX's hyperref links outside every box survive with their URI (or their jump to a
// released page), the link over a boxed word goes with everything it carried. Poppler draws link borders,
// so with the kept links the source and the release render alike outside the black.
// Oracles: qpdf --json and --qdf, mutool show, pdftoppm.

const BODY = String.raw`Keepword \href{https://keep.example.org/open}{Openlink} middle words here.

\bigskip
Plain \href{https://hidden.example.org/Zq7}{Secretword} after.

\bigskip
See \hyperlink{later}{Jumpword} below.

\newpage
\hypertarget{later}{Targetword} on page two.`;

interface QpdfLink {
  rect: number[];
  uri: string | null;
  dest: string | null;
}

/** The links of every page as qpdf reads them (object streams expanded). */
function qpdfLinks(bytes: Buffer): { pages: string[]; links: QpdfLink[][] } {
  const dir = tempDir('obscura-links-');
  try {
    const file = path.join(dir, 'file.pdf');
    fs.writeFileSync(file, bytes);
    const json = JSON.parse(execFileSync('qpdf', ['--json=2', file]).toString('utf8')) as { pages: { object: string }[]; qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>] };
    const objects = json.qpdf[1];
    const value = (ref: unknown): Record<string, unknown> => (typeof ref === 'string' && objects[`obj:${ref}`]?.value ? (objects[`obj:${ref}`]?.value as Record<string, unknown>) : (ref as Record<string, unknown>));
    const links = json.pages.map((page) => {
      const dict = value(page.object);
      const annots = (value(dict['/Annots']) as unknown as unknown[] | undefined) ?? [];
      return annots.map((ref) => {
        const link = value(ref);
        const action = link['/A'] ? value(link['/A']) : null;
        const uri = action ? String(action['/URI']).replace(/^u:/, '') : null;
        const dest = link['/Dest'] ? String((value(link['/Dest']) as unknown as unknown[])[0]) : null;
        return { rect: link['/Rect'] as number[], uri, dest };
      });
    });
    return { pages: json.pages.map((page) => page.object), links };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The URI of page 1's first link as MuPDF reads it (mutool show with an object path). */
function mutoolUri(bytes: Buffer): string {
  const dir = tempDir('obscura-links-');
  try {
    fs.writeFileSync(path.join(dir, 'file.pdf'), bytes);
    return execFileSync('mutool', ['show', '-b', path.join(dir, 'file.pdf'), 'pages/1/Annots/1/A/URI']).toString('latin1').trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The /Rect of the source's link whose URI contains `needle` (pdf-lib). */
async function sourceLinkRect(bytes: Buffer, needle: string): Promise<BurnBox> {
  const doc = await PDFDocument.load(bytes);
  const annots = doc.getPage(0).node.Annots() as PDFArray;
  for (const ref of annots.asArray()) {
    const link = doc.context.lookup(ref as PDFRef, PDFDict);
    const action = link.lookup(PDFName.of('A'));
    if (action instanceof PDFDict && String(action.get(PDFName.of('URI'))).includes(needle)) {
      const [x1, y1, x2, y2] = (link.lookup(PDFName.of('Rect'), PDFArray).asArray() as PDFNumber[]).map((value) => value.asNumber());
      return box(x1 as number, y1 as number, x2 as number, y2 as number);
    }
  }
  throw new Error(`no link to ${needle}`);
}

describe('links in a release', () => {
  it('keeps pdfTeX links outside the boxes with their URI and page jump, drops the one under a box; renders alike outside the black', async () => {
    const source = pdflatex(BODY, '\\usepackage{hyperref}');
    const secret = bboxWords(source).find((word) => word.text === 'Secretword');
    if (!secret) throw new Error('no Secretword');
    // The box over the word and over the link's whole frame (poppler draws hyperref's border around it).
    const frame = await sourceLinkRect(source, 'hidden.example.org');
    const boxes: BurnBox[] = [boxOver(secret), { ...frame, x1: frame.x1 - 1, y1: frame.y1 - 1, x2: frame.x2 + 1, y2: frame.y2 + 1 }];
    const before = qpdfLinks(source);
    expect(before.links[0]?.length).toBe(3);

    const { bytes, pages } = await release(source, new Map([[1, boxes]]));
    expect(pages[0]?.method).toBe('vector');

    const after = qpdfLinks(bytes);
    const [first = [], second = []] = after.links;
    expect(first.map((link) => link.uri)).toEqual(['https://keep.example.org/open', null]);
    // The jump goes to the release's own page 2.
    expect(first[1]?.dest).toBe(after.pages[1]);
    expect(second).toEqual([]);
    // Rectangles unchanged (no Bates margin here: user space stays the source's).
    expect(first[0]?.rect).toEqual(before.links[0]?.find((link) => link.uri?.includes('keep'))?.rect);

    const expanded = qpdfExpanded(bytes);
    expect(expanded).not.toContain('hidden.example.org');
    expect(expanded).not.toMatch(/\/StructParent|\/PA\b|\/Next\b/);
    // MuPDF reads the kept link's URI as well.
    expect(mutoolUri(bytes)).toBe('(https://keep.example.org/open)');

    // The check export verification runs on the file's structure still passes.
    const reparsed = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(structureProblems(reparsed.context, bytes)).toEqual([]);

    // Poppler draws the kept borders on both sides: no pixel differs outside the black.
    const drawn = (pages[0]?.drawnAreas ?? []).map(([x1, y1, x2, y2]) => box(x1, y1, x2, y2));
    const height = reparsed.getPage(0).getHeight();
    expect(differingPixels(render(source), render(bytes), height, drawn, 0.5)).toBe(0);
  }, 120_000);

  it('keeps the links outside the boxes on a rendered page too (method raster)', async () => {
    const source = pdflatex(BODY, '\\usepackage{hyperref}');
    const frame = await sourceLinkRect(source, 'hidden.example.org');
    const { bytes, pages } = await release(source, new Map([[1, [{ ...frame, x1: frame.x1 - 1, y1: frame.y1 - 1, x2: frame.x2 + 1, y2: frame.y2 + 1 }]]]), { ...SETTINGS, method: 'raster' });
    expect(pages[0]?.method).toBe('raster');
    const after = qpdfLinks(bytes);
    expect(after.links[0]?.map((link) => link.uri)).toEqual(['https://keep.example.org/open', null]);
    expect(after.links[0]?.[1]?.dest).toBe(after.pages[1]);
    expect(qpdfExpanded(bytes)).not.toContain('hidden.example.org');
  }, 120_000);

  it('drops a link whose frame touches a box', async () => {
    const source = pdflatex(BODY, '\\usepackage{hyperref}');
    const open = bboxWords(source).find((word) => word.text === 'Openlink');
    if (!open) throw new Error('no Openlink');
    // A box over the word only: the link's frame around it touches the black, so the link goes.
    const { bytes } = await release(source, new Map([[1, [boxOver(open)]]]));
    const uris = qpdfLinks(bytes).links[0]?.map((link) => link.uri) ?? [];
    expect(uris).not.toContain('https://keep.example.org/open');
    expect(uris).toContain('https://hidden.example.org/Zq7');
    expect(qpdfExpanded(bytes)).not.toContain('keep.example.org');
  }, 120_000);

  it('drops a jump to a withheld page; keeps the other links in place when Bates margins grow the page', async () => {
    const source = pdflatex(BODY, '\\usepackage{hyperref}');
    const secret = bboxWords(source).find((word) => word.text === 'Secretword');
    if (!secret) throw new Error('no Secretword');
    const frame = await sourceLinkRect(source, 'hidden.example.org');
    const dir = tempDir('obscura-links-');
    try {
      const document = { documentId: 7, path: path.join(dir, 'source.pdf'), documentType: 'pdf' as const };
      fs.writeFileSync(document.path, source);
      const workPrefix = path.join(dir, 'work');
      const boxes: BurnBox[] = [boxOver(secret), { ...frame, x1: frame.x1 - 1, y1: frame.y1 - 1, x2: frame.x2 + 1, y2: frame.y2 + 1 }];
      const burned = await burnPages({ kind: 'export-burn', exportId: 1, source: document, pages: [{ page: 1, boxes, words: null }], allPages: false, settings: SETTINGS, workPrefix }, () => undefined);
      const outputPath = path.join(dir, 'out.pdf');
      await assemble(
        {
          kind: 'export-assemble',
          exportId: 1,
          outputPath,
          cover: null,
          documents: [{ source: document, pageCount: burned.pageCount, burned: burned.pages, withheld: { ranges: [{ from: 2, to: 2, exemption: 'b5' }], perRange: false } }],
          settings: SETTINGS,
          workPrefix,
          stamps: { prefix: 'CITY-', start: 1, digits: 6, position: 'bottom_right', fontSize: 10 },
        },
        () => undefined,
      );
      const bytes = fs.readFileSync(outputPath);
      const [first = [], placeholder = []] = qpdfLinks(bytes).links;
      expect(first.map((link) => link.uri)).toEqual(['https://keep.example.org/open']);
      expect(placeholder).toEqual([]);
      expect(first[0]?.rect).toEqual(qpdfLinks(source).links[0]?.find((link) => link.uri?.includes('keep'))?.rect);
      const reparsed = await PDFDocument.load(bytes, { updateMetadata: false });
      // The page grew below (the margin) while user space stayed: the link's rectangle needs no shift.
      expect(reparsed.getPage(0).getMediaBox().y).toBeLessThan(0);
      expect(structureProblems(reparsed.context, bytes)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
