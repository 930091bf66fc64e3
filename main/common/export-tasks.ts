import type { BurnMethod, ImageMode } from './schemas/exports.js';
import type { PageCertificate } from './page-certificate.js';
import type { PageWord } from './schemas/pages.js';

// Worker tasks of the export runner (main/jobs/export/ → worker/burn-in/). Plain data only.

export interface BurnPoint {
  x: number;
  y: number;
}

/**
 * One applied redaction on a page, in the document's own units: PDF user space points of the unrotated page
 * (origin bottom-left) for PDFs, pixels (origin top-left) for images. `points` is the outline of polygon-like
 * kinds (empty for rectangles).
 */
export interface BurnBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  points: BurnPoint[];
  /** Printed inside the box when it fits, e.g. (b)(6); null for none. */
  label: string | null;
  /** The redaction's id, to report what was drawn for it; absent in tests that burn bare boxes. */
  id?: string;
}

export interface BurnSettings {
  dpi: number;
  /** Points added on every side of each box (converted to pixels at `dpi` for images). */
  padding: number;
  labels: boolean;
  imageMode: ImageMode;
  jpegQuality: number;
  /** auto: PDF pages are first redacted in their content (vector), rendered only when that is not safe. */
  method: BurnMethod;
}

export type ExportDocumentType = 'pdf' | 'png' | 'jpeg' | 'tiff';

export interface ExportSource {
  documentId: number;
  /** Absolute path of the stored blob. */
  path: string;
  documentType: ExportDocumentType;
}

export interface BurnPageRequest {
  page: number;
  boxes: BurnBox[];
  /** Words stored for the page (text layer or OCR, in the document's units); null: read the source's text layer. */
  words: PageWord[] | null;
}

export interface ExportBurnTask {
  kind: 'export-burn';
  exportId: number;
  source: ExportSource;
  pages: BurnPageRequest[];
  /** Render every page of the source (images: each becomes a PDF page), not only the requested ones. */
  allPages: boolean;
  /** Pages withheld in full: never rendered, whatever else asks for them. */
  skipPages?: number[];
  /** PDFs: also look at every page but these for text a viewer does not show, and burn those pages (no box). */
  sweepExcept?: number[];
  /**
   * Internal review copies with the organization's setting `keep` only, never a release: text a viewer does not
   * show stays (no page is swept or rendered for it); the pages holding it are reported in `hiddenKept`.
   */
  keepHidden?: boolean;
  /**
   * PDFs, method auto: pages to render rather than rewrite in their content, each with the reason (a rewritten
   * page the written file's two-way check refused: verify.ts `refused`). Their requests are in `pages`.
   */
  render?: { page: number; reason: string }[];
  settings: BurnSettings;
  /** Page images are written to `${workPrefix}-d<document>-p<page>.img` (a flat file in the blob temp dir). */
  workPrefix: string;
}

/** A word of the invisible text layer, in the output page's user space (points). */
export interface LayerWord {
  text: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Written top to bottom (a vertical column of CJK text): the layer draws it in vertical writing mode. */
  vertical?: boolean;
  /** Right-to-left text the source draws left to right (visual order): drawn so in the layer too. */
  drawnLeftToRight?: boolean;
  /** The baseline runs this far counterclockwise from the x axis (text turned with its page, a rotated OCR layer). */
  turn?: 90 | 180 | 270;
}

/** flate: /Indexed (≤ 256 colours) or DeviceRGB samples, lossless. */
export type PageImageEncoding = 'jpeg' | 'ccitt-g4' | 'flate';

/** A page rebuilt from its burned image, ready to be assembled. */
export interface RasterizedPage {
  method: 'raster';
  page: number;
  /** MediaBox of the output page: the visible area (crop box) of the source page, in its user space. */
  box: [number, number, number, number];
  rotate: 0 | 90 | 180 | 270;
  /** The page image (pixels) and where it is drawn: [x, y, width, height] in the output page's user space. */
  image: { path: string; encoding: PageImageEncoding; width: number; height: number; place: [number, number, number, number] };
  /** Words outside every box, for the invisible text layer. */
  words: LayerWord[];
  /** Texts of the words that lay under a box: what verification must not find on this page. */
  withheld: string[];
  /** Why a PDF page could not be redacted in its content with method auto; null when it was not tried. */
  fallback: string | null;
  /** The black drawn on the page ([x1, y1, x2, y2], document units, padding included): what verification masks. */
  drawnAreas?: [number, number, number, number][];
  /** The stored (OCR) words the page was burned with, as given (document units): verification judges them itself. */
  stored?: LayerWord[];
}

/**
 * A PDF page redacted in its content: the source page is copied (cut down as copy.ts prepareCopy does) with
 * this content instead of its own; the glyphs under the boxes are gone and the boxes drawn on top.
 */
export interface RewrittenPage {
  method: 'vector';
  page: number;
  /** The new content stream, Flate-compressed, in a work file. */
  contentPath: string;
  /** Resource name the content uses for the labels' Helvetica-Bold; null when it draws no label. */
  labelFont: string | null;
  removedGlyphs: number;
  /** The black drawn for each box: the box, grown only over the whole ink of glyphs it cuts. */
  drawn: DrawnBox[];
  /** Every black area of the page (boxes with padding, and their growth), user space: what verification masks. */
  drawnAreas?: [number, number, number, number][];
  /** Copies of form XObjects whose text was redacted: the content draws each by `name`; the copy keeps the
   * original's dictionary (object `[number, generation]` of the source) with the new content (Flate, a work file). */
  forms?: { name: string; object: [number, number]; contentPath: string }[];
  /** Images redacted in their pixels: new image XObjects the content draws by `name` (the stored stream in a
   * work file, its dictionary described by `data`); the originals stay behind. */
  images?: { name: string; replaces?: string; contentPath: string; data: { width: number; height: number; mask: boolean; colorSpace: 'DeviceGray' | 'DeviceRGB' | null; bitsPerComponent: 1 | 8; filter: 'CCITTFaxDecode' | 'FlateDecode' } }[];
  /** The page's words that stay (the allowance of the leak check), the text layer's included. */
  words: LayerWord[];
  /** Stored (OCR) words of what the page shows only as pixels (a scan), outside every box: added as an
   * invisible text layer, as on rendered pages, so a redacted scan stays searchable. */
  textLayer?: LayerWord[];
  withheld: string[];
  /** The exemption labels drawn as text on the page. */
  labels?: string[];
  /** The stored (OCR) words of the page, as given (user space): verification judges them itself. */
  stored?: LayerWord[];
  /** What the read-back of the rewritten page tests against (worker/burn-in/rewrite-check.ts). */
  rewriting?: Rewriting;
}

/** A rewritten page's boxes as requested and its visible area (crop box within media box), user space. */
export interface Rewriting {
  boxes: BurnBox[];
  visible: { x1: number; y1: number; x2: number; y2: number };
}

/** What was drawn for one box of a page redacted in its content (user space points). */
export interface DrawnBox {
  /** Index of the box in the page request's boxes. */
  box: number;
  redactionId: string | null;
  /** Black beyond the box (padding included) over glyphs it cuts: [x1, y1, x2, y2]. */
  rects: [number, number, number, number][];
  /** How far the black reaches beyond the box, in points (0: drawn as marked). */
  growth: number;
}

export type BurnedPage = RasterizedPage | RewrittenPage;

export interface ExportBurnResult {
  kind: 'export-burn';
  pageCount: number;
  pages: BurnedPage[];
  /** keepHidden: the pages (not withheld in full) holding text a viewer of the source does not show. */
  hiddenKept?: number[];
  /** The thread (threadId) that burned the pages and keeps their source readings for the check (worker/burn-in/kept-sources.ts). */
  thread?: number;
}

export interface CoverSheet {
  caseName: string;
  /** As printed, e.g. 2026-11-21. */
  date: string;
  documents: number;
  redactions: number;
  byExemption: { exemption: string; label: string; count: number }[];
}

/** Pages of a document withheld in full: a placeholder page stands in for them (worker/release-package/). */
export interface WithheldRange {
  from: number;
  /** Inclusive; null: to the document's last page. */
  to: number | null;
  exemption: string;
}

/** Page stamps (Bates numbers) of a release, drawn in a margin added below each page. */
export interface StampPlan {
  prefix: string;
  /** The number of the first stamped page of this output file. */
  start: number;
  digits: number;
  position: 'bottom_left' | 'bottom_center' | 'bottom_right';
  fontSize: number;
}

/** One output page of a release: where it came from (a source page, or a withheld range's placeholder). */
export interface ReleaseLayoutPage {
  documentId: number;
  from: number;
  to: number;
  /** The exemption of a placeholder page; null for a released page. */
  withheld: string | null;
}

export interface AssembleDocument {
  /** Pages withheld in full, and whether one placeholder stands for each page or each range. */
  withheld?: { ranges: WithheldRange[]; perRange: boolean };
  source: ExportSource;
  /** Pages of the source as pdf.js counted them when burning; null when nothing was burned. */
  pageCount: number | null;
  /** Burned pages of this document; every other page is copied (PDF) or rendered without boxes. */
  burned: BurnedPage[];
}

export interface ExportAssembleTask {
  kind: 'export-assemble';
  exportId: number;
  /** Where to write the PDF (a temp file in the blob store); fsynced before the task returns. */
  outputPath: string;
  cover: CoverSheet | null;
  documents: AssembleDocument[];
  settings: BurnSettings;
  workPrefix: string;
  /** Stamps on every page after the cover sheet; absent or null: none. */
  stamps?: StampPlan | null;
}

/** What the leak check looks for on one burned page of an output file. */
export interface PageCheck {
  /** 1-based page number in the output. */
  outputPage: number;
  /** Where it came from, for a failure message (never the words themselves). */
  label: string;
  words: LayerWord[];
  withheld: string[];
  /** The two-way comparison with the source page (worker/burn-in/fidelity/); absent: leak check only. */
  certify?: CertifyPlan;
  /** Texts the export itself draws on the page (exemption labels): allowed on top of the source's own. */
  added?: string[];
  /** The page's stored (OCR) words as given, in the source's units (the reading of a scan). */
  stored?: LayerWord[];
  /** A page redacted in its content: read back against its boxes and word lists first (rewrite-check.ts). */
  rewriting?: Rewriting;
  /** The page stamp (Bates number) assembly drew in the margin it added below the page's visible area. */
  stamp?: string;
}

/** What verification compares an output page with: its source page and the areas drawn black on it. */
export interface CertifyPlan {
  documentId: number;
  sourcePath: string;
  sourceType: ExportDocumentType;
  page: number;
  method: 'vector' | 'raster';
  drawn: [number, number, number, number][];
  fallback: string | null;
}

export interface ExportAssembleResult {
  kind: 'export-assemble';
  sha256: string;
  size: number;
  pages: number;
  /** The burned pages to check; verification runs as separate tasks so pages are checked in parallel. */
  checks: PageCheck[];
  /** Every page after the cover sheet, in order: where it came from. */
  layout?: ReleaseLayoutPage[];
  /** Links of the sources left out because their URI repeats text withheld in their document. */
  linksDropped?: number;
}

/**
 * Re-reads a written output and checks it: the file is the one assembled (hash), its page count, and for each
 * given page that no withheld word came back. One task of a file also checks its structure.
 */
export interface ExportVerifyTask {
  kind: 'export-verify';
  exportId: number;
  path: string;
  sha256: string;
  expectedPages: number;
  checks: PageCheck[];
  /** Checks the file's structure (sanitize.ts): with `search`, on the search's own parse of the file, after the pages. */
  structure: boolean;
  /** A review copy that keeps hidden content: what the source hides is not withheld (what lay under a box still is). */
  keepHidden?: boolean;
  /** The file's only check task: after the page checks (none refused), the whole-file search too (ExportVerifyResult.shown). */
  search?: boolean;
}

export interface ExportVerification {
  pages: number;
  burnedPages: number;
  withheldWords: number;
  /** One per checked page (main/common/page-certificate.ts). */
  certificates?: PageCertificate[];
}

export interface ExportVerifyResult {
  kind: 'export-verify';
  verification: ExportVerification;
  /** The withheld texts of the checked pages (folded), for the whole-file search; held in memory only. */
  withheld?: string[];
  /**
   * Each checked output page's text as the whole-file search reads it (worker/release-check textContentText), read
   * here from the same bytes: the search reads only the other pages.
   */
  pageText?: Record<number, string>;
  /** With `search`: each withheld text's count in the file's page text, as ExportSearchResult gives it. */
  shown?: Record<string, number>;
  /**
   * Pages redacted in their content that failed (b) or (c) of the two-way check on the written file: the file
   * must not be released; the runner renders these pages instead and makes the file again (main/jobs/export/verify.ts madeAndVerified).
   */
  refused?: RefusedPage[];
}

/** A rewritten page the check of the written file refused, and why (never its text). */
export interface RefusedPage {
  documentId: number;
  page: number;
  reason: string;
}

/**
 * The whole-file search of a written output (worker/release-check/): every object of a PDF, or every entry of a
 * release zip, for every withheld text. A PDF's texts are allowed as often as its own page text shows them; a
 * zip's as often as `allowance` says (their count in the released PDFs).
 */
export interface ExportSearchTask {
  kind: 'export-search';
  exportId: number;
  path: string;
  format: 'pdf' | 'zip';
  withheld: string[];
  /** Zip: each withheld text's allowance besides what the released PDFs show (the package's own wording). */
  allowance?: Record<string, number>;
  /** Zip: the entries that are released PDFs (each checked on its own already). */
  released?: string[];
  /** PDF: the digest the page checks read (the file must still be it), and the page texts they read (ExportVerifyResult). */
  sha256?: string;
  pageText?: Record<number, string>;
  /** PDF: the file's structure is checked too, on the same parse (ExportVerifyTask.structure). */
  structure?: boolean;
}

export interface ExportSearchResult {
  kind: 'export-search';
  /** PDF: each withheld text's count in the file's page text. */
  shown: Record<string, number>;
}
