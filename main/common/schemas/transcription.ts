import { z } from 'zod';

export const TranscriptionOptions = z
  .strictObject({
    language: z
      .string()
      .regex(/^[a-z]{2,3}$/, 'an ISO 639-1 code such as en or es')
      .optional()
      .describe('Spoken language; the engine detects it when absent'),
    prompt: z.string().max(1000).optional().describe('Spelling hints for the engine (names, terms)'),
  })
  .meta({ id: 'TranscriptionOptions' });
export type TranscriptionOptions = z.output<typeof TranscriptionOptions>;

/** The result of a transcription job. */
export interface TranscriptionResult {
  segments: number;
  words: number;
  /** Seconds, as the engine reports them (or the end of the last segment). */
  duration: number;
  language: string | null;
  model: string;
  /** Whether the engine gave word times; otherwise they are spread over each segment by length. */
  word_timestamps: 'engine' | 'estimated';
  characters: number;
}
