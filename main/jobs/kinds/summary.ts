import type { TaskPage } from '../../common/analysis-tasks.js';
import { SummaryOptions, type SummaryResult } from '../../common/schemas/summary.js';
import { loadTaskPages } from '../../services/document-text.js';
import { chatSummary } from '../openai-compatible.js';
import type { JobKindHandler } from './types.js';

/** The document's text as the chat endpoint gets it: pages in order, cut to the configured length. */
export function documentText(pages: readonly TaskPage[], maxChars: number): { text: string; truncated: boolean } {
  const separator = pages.every((page) => page.unit === 'seconds') ? ' ' : '\n\n';
  const text = pages.map((page) => page.text.trim()).filter(Boolean).join(separator);
  return text.length > maxChars ? { text: text.slice(0, maxChars), truncated: true } : { text, truncated: false };
}

export const summaryHandler: JobKindHandler = {
  async run({ runtime, job, blob, pool, signal, reportProgress }) {
    const options = SummaryOptions.parse(JSON.parse(job.options));
    const pages = await loadTaskPages(runtime.db, job.organization_id, job.document_id, blob.documentType);
    // The local summary is always computed: it is the answer, or the fallback when the endpoint fails.
    const task = { kind: 'summary' as const, jobId: job.id, pages: pages.map(({ page_number, unit, text }) => ({ page_number, unit, text })), sentences: options.sentences };
    const { result: local } = await pool.run(task, { signal, onProgress: (message) => reportProgress(message.progress * 0.5) });
    const result: SummaryResult = {
      summary: local.summary,
      engine: 'local',
      model: null,
      fallback_reason: null,
      sentences: local.sentences.map(({ text, page }) => ({ text, page })),
      pages: pages.length,
      characters: local.characters,
      input_truncated: false,
    };
    const settings = runtime.config.summary;
    if (options.engine === 'local' || settings.endpoint === undefined) return result;

    reportProgress(0.5);
    const { text, truncated } = documentText(pages, settings.maxInputChars);
    try {
      const written = await chatSummary({ endpoint: settings.endpoint, model: settings.model, timeoutSeconds: settings.timeoutSeconds }, text, options.sentences, signal);
      return { ...result, summary: written.summary, engine: 'endpoint', model: written.model, input_truncated: truncated };
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      return { ...result, fallback_reason: `the summary endpoint (summary.endpoint) failed, so this is the local extractive summary: ${reason}` };
    }
  },
};
