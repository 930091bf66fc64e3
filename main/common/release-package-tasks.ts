// Worker tasks that draw a release package's own documents (worker/release-package/): the withholding index,
// the cover letter, and the preview's page (placeholder, or one page cut from an assembled file). pdf-lib drawing is CPU work, so it runs on the
// pool like burn-in; the task carries only requester-facing rows and counts. Plain data only.

export interface IndexPdfRow {
  reference: string;
  document: string;
  exemptions: string;
  category: string;
  withheld: string;
  count: number;
  since_previous_release: string;
}

export interface CitedExemption {
  code: string;
  name: string;
  justification: string | null;
}

export interface CoverLetter {
  requestNumber: string | null;
  title: string | null;
  date: string;
  releaseNumber: number;
  documents: number;
  pages: number;
  withheldInFull: number;
  batesRange: string | null;
  byExemption: { code: string; name: string; count: number }[];
  /** The office's name and address (release settings), one line each; absent or null: none. */
  letterhead?: string | null;
  /** How to appeal (release settings), printed after the counts; absent or null: none. */
  appealRights?: string | null;
}

export type ReleasePackageDocument =
  | { type: 'withholding-index'; heading: string; rows: IndexPdfRow[]; cited: CitedExemption[] }
  | { type: 'cover-letter'; letter: CoverLetter }
  /** One page standing for pages withheld in full (the preview of such a page). */
  | { type: 'placeholder'; exemption: string; from: number; to: number }
  /** Page `page` of an assembled file (a work file) as a PDF of its own (the preview). */
  | { type: 'single-page'; path: string; page: number };

export interface ReleasePackageTask {
  kind: 'release-package';
  /** 0 for a preview. */
  exportId: number;
  document: ReleasePackageDocument;
}

export interface ReleasePackageResult {
  kind: 'release-package';
  /** The PDF's bytes (small: a few pages of text). */
  bytes: Uint8Array;
}
