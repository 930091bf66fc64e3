import type { EmailHeaders } from './schemas/documents.js';

/** How intake reads a stored original; chosen by the main process from the detected media type. */
export type IntakeFormat = 'eml' | 'msg' | 'mbox' | 'pst' | 'office' | 'text';

/** Documented limits (docs/api.md, Documents → Intake limits); past them a clear error or warning, never a crash. */
export interface IntakeLimits {
  /** Attachments made into child documents per message; the rest are named in a warning. */
  maxAttachments: number;
  /** Messages taken out of one .mbox or .pst. */
  maxContainerMessages: number;
  /** Inline images smaller than this are signature logos and spacers: not made into documents. */
  inlineImageMinBytes: number;
  /** Pages of one rendered message (or text file); the rest of the body is cut with a note in the PDF. */
  maxRenderedPages: number;
  /** OOXML/ODF: total uncompressed size and the ratio to the file's size past which it is an archive bomb. */
  maxUncompressedBytes: number;
  maxCompressionRatio: number;
  /** One LibreOffice conversion. */
  conversionTimeoutMs: number;
}

export interface IntakeFile {
  /** In the blob store's temp directory; the main process commits or removes it. */
  tempPath: string;
  sha256: string;
  size: number;
  name: string;
  contentType: string;
}

export interface IntakeTask {
  kind: 'intake';
  documentId: number;
  sourcePath: string;
  format: IntakeFormat;
  fileName: string;
  /** Where the worker writes what it produces. */
  workDir: string;
  limits: IntakeLimits;
  /** The soffice executable for office files; null for every other format. */
  soffice: string | null;
}

export interface IntakeOutcome {
  rendered: IntakeFile & { pages: number };
  email: EmailHeaders | null;
  /** SHA-256 of the normalised body text (messages), for exact de-duplication with the Message-ID. */
  bodyHash: string | null;
  /** MinHash signature of the normalised text, for near-duplicates. */
  minhash: number[] | null;
  /** The subject without Re:/Fwd: prefixes, lower-cased: the threading fallback. */
  subjectKey: string | null;
  /** Attachments, embedded objects, or the messages of a container, in order. */
  children: IntakeFile[];
  warnings: string[];
}

export interface IntakeTaskResult {
  kind: 'intake';
  outcome: IntakeOutcome | { error: string };
}
