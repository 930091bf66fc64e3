import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { LAYER_INFO, type Layer } from '../../main/common/redaction-catalog.js';
import type { Export } from '../../main/common/schemas/exports.js';
import { buildCorpus, exportFile, loadCorpus, startExportHarness, type Corpus, type CorpusDocument, type Harness, type LoadedCorpus } from '../helpers/export-fixtures.js';
import { darkShare, encodings, pdftotext, qpdfCheck, qpdfExpanded, rawTexts, renderGray, userRectToPixels } from '../helpers/pdf-tools.js';
import { sha256 } from '../helpers/integration-support.js';

// True redaction, checked by tools that share no code with the exporter: poppler's pdftotext and pdftoppm, and
// qpdf's fully decompressed rewrite of the file. Needs the compiled worker (npm run build:main).

const DPI = 200;

/** Every secret, in every encoding, searched in the text layer and in the decompressed bytes. */
function expectNoSecrets(bytes: Buffer, secrets: readonly string[], label: string): void {
  const text = pdftotext(bytes);
  const expanded = qpdfExpanded(bytes);
  for (const secret of secrets) {
    expect(text.includes(secret), `${label}: pdftotext found ${secret}`).toBe(false);
    for (const form of encodings(secret)) expect(expanded.includes(form), `${label}: the decompressed file holds ${secret} as ${JSON.stringify(form)}`).toBe(false);
  }
}

/** Nothing but pages: no Info, XMP, annotations, actions, scripts, forms, attachments, outlines; one revision. */
function expectBareStructure(bytes: Buffer, label: string): void {
  expect(qpdfCheck(bytes)).toMatch(/No syntax or stream encoding errors/);
  const expanded = qpdfExpanded(bytes);
  for (const name of ['/Info', '/Metadata', '/Annots', '/AA', '/OpenAction', '/JavaScript', '/JS', '/AcroForm', '/EmbeddedFile', '/Outlines', '/Names']) {
    expect(new RegExp(`${name.replace('/', '\\/')}\\b`).test(expanded), `${label} contains ${name}`).toBe(false);
  }
  expect(bytes.toString('latin1').match(/%%EOF/g)?.length, `${label}: revisions`).toBe(1);
}

/** The boxes of a document are black where the viewer shows them; kept words still show ink. */
function expectPixels(bytes: Buffer, document: CorpusDocument): void {
  const pages = new Map<number, ReturnType<typeof renderGray>>();
  for (const check of document.pixelChecks) {
    const dpi = check.view ? 72 : DPI;
    let image = pages.get(check.page);
    if (!image) {
      image = renderGray(bytes, check.page, dpi);
      pages.set(check.page, image);
    }
    const rect = check.view ? userRectToPixels(check.rect, check.view, check.rotate, dpi) : check.rect;
    const share = darkShare(image, rect);
    if (check.expect === 'black') expect(share, `${document.name} page ${check.page} box ${JSON.stringify(check.rect)} is black`).toBeGreaterThan(0.97);
    else {
      expect(share, `${document.name} page ${check.page}: kept word ${JSON.stringify(check.rect)} shows ink`).toBeGreaterThan(0.03);
      expect(share, `${document.name} page ${check.page}: kept word ${JSON.stringify(check.rect)} is not blacked out`).toBeLessThan(0.7);
    }
  }
}

const METHODS = ['auto', 'raster'] as const;

/**
 * Which pages were redacted in their content: with auto, every born-digital page the content rewriting can
 * handle (two columns, /Rotate 90, offset crop box, cut word, polygon, invisible and marked text); the others
 * rendered for the stated reason. With raster, every page rendered.
 */
function expectMethods(exported: Export, method: (typeof METHODS)[number], documentIds: readonly string[]): void {
  const burn = exported.summary?.burn;
  const [bornDigital, , , , shared] = documentIds;
  const rendered = Object.fromEntries((burn?.rendered ?? []).map((entry) => [`${entry.document_id}/${entry.page}`, entry.reason]));
  if (method === 'raster') {
    expect(burn?.vector_pages).toBe(0);
    expect(Object.values(rendered).every((reason) => reason === 'options.method is raster')).toBe(true);
    expect(Object.keys(rendered)).toHaveLength(8);
    return;
  }
  // The form field of page 1 is drawn flattened; the text of the shared form is redacted in a copy of it; the
  // scanned page's picture is redacted in its own pixels and its OCR text in the content. Pages holding text a
  // viewer does not show (beyond the crop box, drawn invisibly over no picture) are rendered: it must not travel.
  expect(burn?.vector_pages, JSON.stringify(burn)).toBe(5);
  expect(rendered).toEqual({
    [`${bornDigital}/4`]: expect.stringMatching(/^the page holds text its viewer does not show \(outside-crop: \d+ glyph\(s\)\)$/),
    [`${bornDigital}/5`]: 'a box covers the whole page',
    [`${bornDigital}/8`]: expect.stringMatching(/^the page holds text its viewer does not show \(invisible: \d+ glyph\(s\)\)$/),
  });
  expect(burn?.grown?.length).toBeGreaterThan(0);
  for (const entry of burn?.grown ?? []) expect(entry.growth_pt).toBeGreaterThan(0);
}

function appliedCount(corpus: Corpus, layer?: Layer): number {
  return corpus.documents.reduce(
    (sum, document) => sum + document.boxes.filter((box) => (box.review === 'accepted' || box.review === 'review-accept') && (!layer || box.layer === layer)).length,
    0,
  );
}

function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('exports: nothing under a box survives', () => {
  let harness: Harness;
  let corpus: Corpus;
  let loaded: LoadedCorpus;

  beforeAll(async () => {
    harness = await startExportHarness();
    corpus = await buildCorpus();
    loaded = await loadCorpus(harness.instance, corpus);
    // The sources really do hold every secret: otherwise the checks below prove nothing.
    const sourceText = corpus.documents
      .filter((document) => document.type === 'pdf')
      .map((document) => pdftotext(document.bytes) + qpdfExpanded(document.bytes) + rawTexts(document.bytes))
      .join('\n');
    for (const secret of ['Sharedsecret', 'Zebulon', 'Ostrakon', 'Wexford4417', 'Thistledown', 'Outsidecrop', 'Fullpagesecret', 'Annotsecret', 'Revisionsecret', 'Infosecret', 'Xmpsecret', 'Outlinesecret', 'Jssecret', 'Formsecret', 'Kestrelwood', 'Cinnabarhalf', 'Gossamerine', 'Invisiblesecret', 'Actualsecret', 'Propertysecret', 'Wrappedword']) {
      expect(encodings(secret).some((form) => sourceText.includes(form)), `the corpus contains ${secret}`).toBe(true);
    }
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  for (const method of METHODS) {
    it(`pdf, method ${method}: one release PDF in document order with a cover sheet; no secret in text or bytes; kept text found`, async () => {
      const { exported, bytes } = await exportFile(harness.instance, { case_id: loaded.caseId, options: { cover_sheet: true, method } });
      expect(exported.file).toMatchObject({ media_type: 'application/pdf', size: bytes.length, sha256: sha256(bytes) });
      const pages = 1 + corpus.documents.reduce((sum, document) => sum + document.pages, 0);
      expect(exported.summary).toMatchObject({ documents: 5, pages, redactions: appliedCount(corpus), skipped_documents: [] });
      expect(exported.summary?.verification).toMatchObject({ files: 1, pages });
      expect(exported.summary?.verification?.withheld_words).toBeGreaterThan(10);

      expectNoSecrets(bytes, [...corpus.secrets], 'release.pdf');
      expectBareStructure(bytes, 'release.pdf');
      const text = pdftotext(bytes);
      expect([...corpus.kept, corpus.pendingWord].filter((word) => !text.includes(word)), 'kept words pdftotext does not find').toEqual([]);
      // Documents in upload order, the cover first.
      // The cover never prints the internal case name; without a requester-facing title it says what it is.
      const order = ['Records release', 'Records responsive to your request', 'Harborview', 'Lindenbaum', 'Pemberton', 'Juniperhall', 'Plainpage', 'Stamppage', 'Vectorkeep', 'Hollowmere', 'Cobblestone', 'Meadowlark', 'Brambleton', 'Sharedkeep'];
      const positions = order.map((word) => text.indexOf(word));
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      const cover = pdftotext(bytes, { layout: true, page: 1 });
      expect(cover).not.toContain('Leak corpus');
      expect(cover).toMatch(new RegExp(`Redactions: ${appliedCount(corpus)}\\b`));
      for (const layer of ['B1', 'B3', 'B4', 'B5', 'B6', 'B7'] as const) {
        const line = cover.split('\n').find((entry) => entry.trimStart().startsWith(LAYER_INFO[layer].exemption)) ?? '';
        expect(line, `cover line of ${layer}`).toContain(LAYER_INFO[layer].label);
        expect(line.trim().split(/\s+/).at(-1), `count of ${layer}`).toBe(String(appliedCount(corpus, layer)));
      }
      // Labels: the full-page box of page 5 (output page 6) carries its exemption code in white.
      const full = renderGray(bytes, 6, 72);
      const share = darkShare(full, { x1: 0, y1: 0, x2: full.width, y2: full.height });
      expect(share).toBeGreaterThan(0.95);
      expect(share).toBeLessThan(0.9999);
      expect(exported.summary?.by_exemption).toEqual({ '(b)(1)': 1, '(b)(3)': 1, '(b)(4)': 1, '(b)(5)': 2, '(b)(6)': 10, '(b)(7)': 3 });
      expectMethods(exported, method, loaded.documentIds);
    }, 120_000);

    it(`zip, method ${method}: every document file is leak-free, its boxes black where a viewer draws them; manifest and index agree`, async () => {
      const { exported, bytes } = await exportFile(harness.instance, { case_id: loaded.caseId, format: 'zip', options: { labels: false, method } });
      expectMethods(exported, method, loaded.documentIds);
      expect(exported.file?.media_type).toBe('application/zip');
      const files = await unzip(bytes);
      const names = [...files.keys()].sort();
      expect(names).toEqual([
        'documents/001-born-digital.pdf',
        'documents/002-scanned.pdf',
        'documents/003-photo.pdf',
        'documents/004-scan.pdf',
        'documents/005-shared.pdf',
        'manifest.json',
        'withholding-index.csv',
        'withholding-index.pdf',
      ]);
      const manifest = JSON.parse(files.get('manifest.json')?.toString('utf8') ?? '{}') as { schema_version: number; files: { path: string; size: number; sha256: string }[] };
      expect(manifest.schema_version).toBe(2);
      expect(manifest.files.map((file) => file.path).sort()).toEqual(names.filter((name) => name !== 'manifest.json'));
      for (const entry of manifest.files) {
        const content = files.get(entry.path) as Buffer;
        expect({ size: content.length, sha256: sha256(content) }, entry.path).toEqual({ size: entry.size, sha256: entry.sha256 });
      }
      for (const [index, document] of corpus.documents.entries()) {
        const name = names.find((entry) => entry.startsWith(`documents/00${index + 1}-`)) ?? '';
        const pdf = files.get(name) as Buffer;
        expectNoSecrets(pdf, corpus.secrets, name);
        expectBareStructure(pdf, name);
        expectPixels(pdf, document);
      }
      // The page without redactions or visible annotations was copied, its text still vector text.
      expect(qpdfExpanded(files.get('documents/001-born-digital.pdf') as Buffer)).toContain('(Plainpage Visible text) Tj');
      // The text files name no secret either (the suggestion's pending_reason named one).
      for (const name of ['withholding-index.csv', 'manifest.json']) {
        const content = files.get(name)?.toString('utf8') ?? '';
        for (const secret of corpus.secrets) expect(content.includes(secret), `${name} contains ${secret}`).toBe(false);
      }
      // The index counts every applied box once (rows group a page's boxes by exemption and category).
      const index = files.get('withholding-index.csv')?.toString('utf8') ?? '';
      const counts = index.trimEnd().split('\r\n').slice(1).map((line) => Number(/,in part,(\d+),/.exec(line)?.[1] ?? 0));
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(appliedCount(corpus));
    }, 120_000);
  }

  it('pending suggestions count only when asked: include_pending burns them too', async () => {
    const { exported, bytes } = await exportFile(harness.instance, { case_id: loaded.caseId, filters: { include_pending: true, document_ids: [loaded.documentIds[0]] } });
    expect(exported.summary?.redactions).toBe(corpus.documents[0]?.boxes.filter((box) => box.review !== 'review-reject').length);
    expectNoSecrets(bytes, [...corpus.secrets, corpus.pendingWord], 'with pending');
    const text = pdftotext(bytes);
    expect(text).toContain('Rejectedword');
    expect(text).toContain('Harborview');
  }, 120_000);

  it('layers narrow what is applied: without B6, the B6 boxes are not burned', async () => {
    const { bytes } = await exportFile(harness.instance, { case_id: loaded.caseId, filters: { layers: ['B5', 'B7'], document_ids: [loaded.documentIds[0]] } });
    const text = pdftotext(bytes);
    expect(text).toContain('Zebulon');
    expect(text).not.toContain('Ostrakon');
    expect(text).not.toContain('Violetcrown');
  }, 120_000);

  it('stored words that contradict the page text layer are distrusted: a word it puts under a box stays out', async () => {
    // OCR words claim the secret lies far from its box; the file's hidden text layer says it is under the box.
    const db = harness.instance.runtime.db;
    const id = Number(loaded.documentIds[1]);
    const row = await db.selectFrom('document_pages').selectAll().where('document_id', '=', id).executeTakeFirstOrThrow();
    const words = JSON.parse(row.words) as { text: string; x1: number; y1: number; x2: number; y2: number }[];
    const shifted = words.map((word) => (word.text === 'Kestrelwood' ? { ...word, x1: 400, x2: 520, y1: 60, y2: 80 } : word));
    await db.updateTable('document_pages').set({ words: JSON.stringify(shifted) }).where('document_id', '=', id).execute();
    try {
      const { bytes } = await exportFile(harness.instance, { case_id: loaded.caseId, filters: { document_ids: [String(id)] } });
      expectNoSecrets(bytes, corpus.secrets, 'contradicting OCR');
      expect(pdftotext(bytes)).toContain('Hollowmere');
    } finally {
      await db.updateTable('document_pages').set({ words: row.words }).where('document_id', '=', id).execute();
    }
  }, 120_000);
});
