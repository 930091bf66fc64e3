import { z } from 'zod';

export const SummaryOptions = z
  .strictObject({
    sentences: z.number().int().min(1).max(30).default(5).describe('Length of the summary in sentences'),
    engine: z
      .enum(['auto', 'local'])
      .default('auto')
      .describe('auto: the configured chat endpoint (summary.endpoint) when there is one, else local; local: never use the network'),
  })
  .meta({ id: 'SummaryOptions' });
export type SummaryOptions = z.output<typeof SummaryOptions>;

/** The local summary, computed in a worker: the best sentences of the document in their original order. */
export interface ExtractiveSummary {
  summary: string;
  sentences: { text: string; page: number; score: number }[];
  /** Sentences considered (after dropping repeated headers, fragments and tables). */
  candidate_sentences: number;
  characters: number;
}

/** The result of a summary job. */
export interface SummaryResult {
  summary: string;
  /** `local`: extractive, computed here; `endpoint`: written by the configured chat endpoint. */
  engine: 'local' | 'endpoint';
  model: string | null;
  /** Set when the endpoint was configured (and not opted out of) but failed: why the local summary was used. */
  fallback_reason: string | null;
  sentences: { text: string; page: number }[];
  pages: number;
  characters: number;
  /** The endpoint was given only the start of a long document. */
  input_truncated: boolean;
}
