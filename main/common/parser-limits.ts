import { z } from 'zod';

/**
 * Limits on what a worker thread may decode from one untrusted file (docs/security.md). The main process
 * reads them from config.json `parserLimits` and hands them to every worker thread as workerData.
 */
export const ParserLimits = z.strictObject({
  /** Largest picture decoded, in pixels (width × height): PDF images, PNG, JPEG and TIFF pages. */
  maxImagePixels: z.number().int().min(1_000_000).default(100_000_000),
  /** Largest decompressed size of one Flate stream of a PDF. */
  maxStreamBytes: z.number().int().min(1024 * 1024).default(256 * 1024 * 1024),
  /** Largest decompressed size of all Flate streams of one PDF together. */
  maxDocumentDecodedBytes: z.number().int().min(1024 * 1024).default(2 * 1024 * 1024 * 1024),
  /** Most pages a PDF or TIFF may have. */
  maxPages: z.number().int().min(1).default(10_000),
  /** Largest page side, in PDF points (14,400 = 200 inches, the PDF format's own limit). */
  maxPageSidePoints: z.number().min(72).default(14_400),
  /** V8 heap of each worker thread (piscina resourceLimits.maxOldGenerationSizeMb). */
  workerHeapMb: z.number().int().min(256).default(2048),
  /** The watchdog stops running tasks when the process's resident memory passes this (0: half the machine's memory, at most 8 GiB). */
  watchdogRssMb: z.number().int().min(0).default(0),
});
export type ParserLimits = z.output<typeof ParserLimits>;

export const DEFAULT_PARSER_LIMITS: ParserLimits = ParserLimits.parse({});

/** Thrown by a worker when a file passes one of the limits: the job fails with this message, nothing else. */
export class ParserLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParserLimitError';
  }
}
