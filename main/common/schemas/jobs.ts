import { z } from 'zod';
import { DetectionOptions } from './detection.js';
import { OcrOptions } from './ocr.js';
import { Timestamp } from './shared.js';
import { SummaryOptions } from './summary.js';
import { TranscriptionOptions } from './transcription.js';

export const JOB_KINDS = ['scan', 'ocr', 'detection', 'transcription', 'summary'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** queued → running → completed | failed; running → queued only when a process stops or dies mid-job. */
export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const ScanOptions = z
  .strictObject({
    min_text_chars: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(10)
      .describe('A page has a usable text layer when pdf.js extracts at least this many non-blank characters from it'),
  })
  .meta({ id: 'ScanOptions' });
export type ScanOptions = z.output<typeof ScanOptions>;

/** Options of each kind; a kind without an entry here cannot be started yet. */
export const JOB_OPTIONS = { scan: ScanOptions, ocr: OcrOptions, detection: DetectionOptions, summary: SummaryOptions, transcription: TranscriptionOptions } as const satisfies Partial<Record<JobKind, z.ZodType>>;
export type StartableJobKind = keyof typeof JOB_OPTIONS;

export const Job = z
  .object({
    id: z.string(),
    document_id: z.string(),
    kind: z.enum(JOB_KINDS),
    status: z.enum(JOB_STATUSES),
    options: z.record(z.string(), z.unknown()).describe('The options the job runs with, defaults filled in'),
    progress: z.number().min(0).max(1),
    attempts: z.number().int().describe('How many times the job was handed to a worker'),
    result: z.record(z.string(), z.unknown()).nullable().describe('Set once completed; its shape depends on kind (see docs/api.md)'),
    error_message: z.string().nullable().describe('Set when failed'),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
    updated_at: Timestamp,
  })
  .meta({ id: 'Job' });
export type Job = z.infer<typeof Job>;

export type FindingSeverity = 'info' | 'warning' | 'danger';

export interface ScanFinding {
  code: string;
  severity: FindingSeverity;
  message: string;
}

export const HIDDEN_CONTENT_KINDS = ['optional-content', 'invisible', 'outside-crop', 'covered', 'clipped'] as const;
export type HiddenContentKind = (typeof HIDDEN_CONTENT_KINDS)[number];

/** One kind of hidden text on a scanned page. */
export interface ScanHiddenContent {
  kind: HiddenContentKind;
  glyphs: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  text?: string;
}

export interface ScanPage {
  page: number;
  /** Size of the visible area (crop box) in points, before rotation. */
  width: number;
  height: number;
  rotation: number;
  /** [x1, y1, x2, y2] in points; null when the page dictionary is not readable from the raw bytes. */
  media_box: number[] | null;
  /** The visible area as pdf.js uses it (CropBox clipped to MediaBox). */
  crop_box: number[];
  crop_box_differs: boolean;
  text_chars: number;
  has_text_layer: boolean;
  /**
   * Text a viewer of the page does not show, by kind, with its glyph count and bounds (points): releases leave it out.
   * `text` is the hidden text itself (at most 500 characters; absent in scans made before it was recorded), for the
   * clerk to read in the viewer: internal, like the rest of a job's result.
   */
  hidden_content?: ScanHiddenContent[];
}

export interface ScanPdf {
  parses: boolean;
  parse_error: string | null;
  encrypted: boolean;
  page_count: number | null;
  pages: ScanPage[];
  text_layer_pages: number[];
}

export interface ScanActiveContent {
  javascript: boolean;
  open_action: boolean;
  additional_actions: boolean;
  launch: boolean;
  embedded_files: boolean;
  forms: boolean;
  /** Saves appended after the original file: one less than the revisions found. */
  incremental_updates: number;
  eof_markers: number;
  startxref_markers: number;
}

/** A TIFF's pages from its directory chain (sizes in pixels, as stored); only for TIFF documents. */
export interface ScanTiff {
  page_count: number | null;
  pages: { page: number; width: number; height: number }[];
  parse_error: string | null;
}

/** The result of a scan job. */
export interface ScanResult {
  file: { media_type: string | null; document_type: string | null; size: number; sha256: string; sha256_matches: boolean };
  pdf: ScanPdf | null;
  /** Present for TIFF documents only. */
  tiff?: ScanTiff;
  active_content: ScanActiveContent | null;
  eicar: boolean;
  findings: ScanFinding[];
  verdict: FindingSeverity | 'clean';
}
