import type { PageWord } from '../../common/schemas/pages.js';
import { TranscriptionOptions, type TranscriptionResult } from '../../common/schemas/transcription.js';
import { findDocument } from '../../db/queries/documents.js';
import { deleteDocumentPagesFrom, upsertDocumentPage } from '../../db/queries/document-pages.js';
import { transcribeFile, type VerboseTranscription } from '../openai-compatible.js';
import type { JobKindHandler } from './types.js';
import { transact } from '../../db/transaction.js';

const round = (value: number) => Math.round(value * 1000) / 1000;

interface TranscriptPage {
  start: number;
  end: number;
  text: string;
  words: PageWord[];
  confidence: number | null;
}

/** Spreads a segment's time over its words by length, for engines that give segment times only. */
function estimatedWords(text: string, start: number, end: number, confidence: number): PageWord[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  const total = tokens.reduce((sum, token) => sum + token.length + 1, 0);
  let cursor = start;
  return tokens.map((token) => {
    const duration = total > 0 ? ((end - start) * (token.length + 1)) / total : 0;
    const word = { text: token, x1: 0, y1: 0, x2: 0, y2: 0, confidence, start: round(cursor), end: round(cursor + duration) };
    cursor += duration;
    return word;
  });
}

/** One page per timed segment; words from the segment, from the top-level word list, or estimated. */
export function transcriptPages(answer: VerboseTranscription): { pages: TranscriptPage[]; wordTimes: 'engine' | 'estimated' } {
  const segments = answer.segments ?? [{ start: 0, end: answer.duration ?? 0, text: answer.text ?? '' }];
  const topWords = answer.words ?? [];
  let engineTimes = segments.length > 0;
  const pages = segments
    .map((segment, index): TranscriptPage => {
      const confidence = segment.avg_logprob !== undefined ? Math.min(100, Math.max(0, Math.exp(segment.avg_logprob) * 100)) : null;
      const wordConfidence = (probability: number | undefined) => (probability !== undefined ? Math.min(100, Math.max(0, probability * 100)) : (confidence ?? 100));
      const next = segments[index + 1];
      const own = segment.words ?? topWords.filter((word) => word.start >= segment.start && (next ? word.start < next.start : true));
      const text = segment.text.trim();
      let words: PageWord[];
      if (own.length > 0) {
        words = own
          .filter((word) => word.word.trim())
          .map((word) => ({ text: word.word.trim(), x1: 0, y1: 0, x2: 0, y2: 0, confidence: wordConfidence(word.probability), start: round(word.start), end: round(word.end) }));
      } else {
        engineTimes = false;
        words = estimatedWords(text, segment.start, segment.end, confidence ?? 100);
      }
      return { start: segment.start, end: segment.end, text, words, confidence };
    })
    .filter((page) => page.text.length > 0);
  return { pages, wordTimes: engineTimes ? 'engine' : 'estimated' };
}

export const transcriptionHandler: JobKindHandler = {
  async run({ runtime, job, blob, signal, reportProgress }) {
    if (blob.documentType !== 'audio' && blob.documentType !== 'video') {
      throw new Error(`transcription applies to audio and video documents; this one is ${blob.documentType} (use an OCR job for PDFs and images)`);
    }
    const settings = runtime.config.transcription;
    if (settings.endpoint === undefined) {
      throw new Error('no transcription engine is configured: set transcription.endpoint in config.json to an OpenAI-compatible speech-to-text server (whisper.cpp server, faster-whisper-server, LocalAI)');
    }
    const options = TranscriptionOptions.parse(JSON.parse(job.options));
    const document = await findDocument(runtime.db, job.organization_id, job.document_id);
    if (!document) throw new Error('the document was deleted while the job ran');
    reportProgress(0.05);
    const answer = await transcribeFile(
      { endpoint: settings.endpoint, model: settings.model, timeoutSeconds: settings.timeoutSeconds },
      { path: blob.path, name: document.file_name, mediaType: document.media_type },
      options,
      signal,
    );
    if (signal.aborted) throw new Error('stopped');
    const { pages, wordTimes } = transcriptPages(answer);
    const now = runtime.clock.now().toISOString();
    // All pages in one transaction, replacing an earlier transcript (and dropping its extra pages).
    await transact(runtime.db, async (trx) => {
      for (const [index, page] of pages.entries()) {
        await upsertDocumentPage(trx, {
          organization_id: job.organization_id,
          document_id: job.document_id,
          page_number: index + 1,
          source: 'transcript',
          job_id: job.id,
          unit: 'seconds',
          width: round(page.end - page.start),
          height: 0,
          rotation: 0,
          text: page.text,
          words: JSON.stringify(page.words),
          mean_confidence: page.confidence === null ? null : round(page.confidence),
          created_at: now,
        });
      }
      await deleteDocumentPagesFrom(trx, job.document_id, pages.length + 1);
    });
    const result: TranscriptionResult = {
      segments: pages.length,
      words: pages.reduce((sum, page) => sum + page.words.length, 0),
      duration: round(answer.duration ?? pages.at(-1)?.end ?? 0),
      language: answer.language ?? null,
      model: settings.model,
      word_timestamps: wordTimes,
      characters: pages.reduce((sum, page) => sum + page.text.length, 0),
    };
    return result;
  },
};
