import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DetectionResult } from '../../main/common/schemas/detection.js';
import type { Job } from '../../main/common/schemas/jobs.js';
import { PageWord } from '../../main/common/schemas/pages.js';
import type { SummaryResult } from '../../main/common/schemas/summary.js';
import type { TranscriptionResult } from '../../main/common/schemas/transcription.js';
import { listDocumentPages } from '../../main/db/queries/document-pages.js';
import { minimalPdf } from '../helpers/temp.js';
import { orgId } from '../helpers/integration-support.js';
import { closeHarness, fakeServer, formDataOf, harness, runJob, storePages, upload, wavFile, type FakeServer, type Harness } from '../helpers/analysis-support.js';
import { layoutPage } from '../helpers/page-layout.js';

// Summary and transcription jobs through HTTP, the scheduler and worker threads, against real HTTP servers
// started here that speak the OpenAI-compatible chat and speech-to-text protocols.

const MEMO = [
  'MEMORANDUM',
  'The city council reviewed the water treatment contract with Harbor Engineering after residents complained about billing.',
  'The weather on the day of the meeting was mild and sunny.',
  'Council members found that the water treatment contract let Harbor Engineering bill the city twice for maintenance.',
  'Refreshments were served in the lobby before the session began.',
  'The council voted to suspend payments to Harbor Engineering until the water treatment contract billing is corrected.',
];

function completed<T>(job: Job): T {
  expect(job.status, job.error_message ?? '').toBe('completed');
  return job.result as unknown as T;
}

describe('summary jobs', () => {
  let h: Harness;
  let server: FakeServer | null = null;
  beforeAll(async () => {
    h = await harness();
  });
  afterEach(async () => {
    h.instance.runtime.config.summary.endpoint = undefined;
    await server?.close();
    server = null;
  });
  afterAll(() => closeHarness(h));

  async function memoDocument(): Promise<string> {
    const documentId = await upload(h.instance, 'memo.pdf', minimalPdf('Memo'));
    await storePages(h.instance, documentId, [layoutPage(MEMO)]);
    return documentId;
  }

  it('without an endpoint: the local extractive summary, in document order', async () => {
    const result = completed<SummaryResult>(await runJob(h.instance, await memoDocument(), 'summary', { sentences: 2 }));
    expect(result).toMatchObject({ engine: 'local', model: null, fallback_reason: null, pages: 1, input_truncated: false });
    expect(result.sentences).toHaveLength(2);
    for (const sentence of result.sentences) {
      expect(sentence.page).toBe(1);
      expect(sentence.text).toMatch(/water treatment contract/);
    }
    expect(MEMO.indexOf(result.sentences[0]?.text ?? '')).toBeLessThan(MEMO.indexOf(result.sentences[1]?.text ?? ''));
    expect(result.summary).toBe(result.sentences.map((sentence) => sentence.text).join(' '));
  });

  it('with an endpoint: its answer, after sending the model and the document text', async () => {
    server = await fakeServer(() => ({ status: 200, body: { id: 'chatcmpl-1', model: 'llama-3.1-8b', choices: [{ index: 0, message: { role: 'assistant', content: '<think>plan</think>The council suspended payments over double billing.' } }] } }));
    Object.assign(h.instance.runtime.config.summary, { endpoint: `${server.url}/v1`, model: 'llama-3.1-8b' });
    const result = completed<SummaryResult>(await runJob(h.instance, await memoDocument(), 'summary', { sentences: 3 }));
    expect(result).toMatchObject({ engine: 'endpoint', model: 'llama-3.1-8b', fallback_reason: null, summary: 'The council suspended payments over double billing.' });
    expect(server.received).toHaveLength(1);
    const request = server.received[0];
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    const body = z.object({ model: z.string(), messages: z.array(z.object({ role: z.string(), content: z.string() })) }).parse(JSON.parse(request?.body.toString() ?? ''));
    expect(body.model).toBe('llama-3.1-8b');
    expect(body.messages[0]?.content).toMatch(/at most 3 sentences/);
    expect(body.messages[1]).toEqual({ role: 'user', content: MEMO.join('\n') });
  });

  it('a failing endpoint: the local summary, saying why', async () => {
    server = await fakeServer(() => ({ status: 500, body: 'model not loaded' }));
    h.instance.runtime.config.summary.endpoint = server.url;
    const result = completed<SummaryResult>(await runJob(h.instance, await memoDocument(), 'summary'));
    expect(result.engine).toBe('local');
    expect(result.summary).toMatch(/water treatment contract/);
    expect(result.fallback_reason).toBe(`the summary endpoint (summary.endpoint) failed, so this is the local extractive summary: ${server.url}/v1/chat/completions answered HTTP 500: model not loaded`);
  });

  it('an unreachable endpoint and one answering nonsense fall back too; engine local never calls it', async () => {
    server = await fakeServer(() => ({ status: 200, body: { unexpected: true } }));
    h.instance.runtime.config.summary.endpoint = server.url;
    const nonsense = completed<SummaryResult>(await runJob(h.instance, await memoDocument(), 'summary'));
    expect(nonsense.fallback_reason).toMatch(/answered without choices\[0\]\.message\.content$/);
    const calls = server.received.length;
    const local = completed<SummaryResult>(await runJob(h.instance, await memoDocument(), 'summary', { engine: 'local' }));
    expect(local).toMatchObject({ engine: 'local', fallback_reason: null });
    expect(server.received).toHaveLength(calls);

    const closedUrl = server.url;
    await server.close();
    server = null;
    h.instance.runtime.config.summary.endpoint = closedUrl;
    const unreachable = completed<SummaryResult>(await runJob(h.instance, await memoDocument(), 'summary'));
    expect(unreachable.engine).toBe('local');
    expect(unreachable.fallback_reason).toMatch(new RegExp(`${closedUrl}/v1/chat/completions could not be reached`));
  });

  it('without stored text the job fails, naming the job to run', async () => {
    const documentId = await upload(h.instance, 'empty.pdf', minimalPdf('Nothing read'));
    const job = await runJob(h.instance, documentId, 'summary');
    expect(job).toMatchObject({ status: 'failed' });
    expect(job.error_message).toMatch(/run an OCR job first/);
  });
});

const VERBOSE = {
  task: 'transcribe',
  language: 'english',
  duration: 9.5,
  text: 'Hello, this is Officer Dana Whitfield. My phone number is 217 555 0143. The suspect fled north.',
  segments: [
    { id: 0, start: 0, end: 3.2, text: ' Hello, this is Officer Dana Whitfield.', avg_logprob: -0.1 },
    { id: 1, start: 3.2, end: 7.0, text: ' My phone number is 217 555 0143.', avg_logprob: -0.2 },
    { id: 2, start: 7.0, end: 9.5, text: ' The suspect fled north.', avg_logprob: -0.3 },
  ],
  words: [
    ['Hello,', 0, 0.5], ['this', 0.5, 0.8], ['is', 0.8, 1.0], ['Officer', 1.0, 1.6], ['Dana', 1.6, 2.2], ['Whitfield.', 2.2, 3.2],
    ['My', 3.2, 3.5], ['phone', 3.5, 3.9], ['number', 3.9, 4.4], ['is', 4.4, 4.6], ['217', 4.6, 5.3], ['555', 5.3, 6.0], ['0143.', 6.0, 7.0],
    ['The', 7.0, 7.3], ['suspect', 7.3, 7.9], ['fled', 7.9, 8.5], ['north.', 8.5, 9.5],
  ].map(([word, start, end]) => ({ word: ` ${word as string}`, start, end, probability: 0.9 })),
};

describe('transcription jobs', () => {
  let h: Harness;
  let server: FakeServer | null = null;
  beforeAll(async () => {
    h = await harness();
  });
  afterEach(async () => {
    h.instance.runtime.config.transcription.endpoint = undefined;
    await server?.close();
    server = null;
  });
  afterAll(() => closeHarness(h));

  const pagesOf = async (documentId: string) => listDocumentPages(h.instance.runtime.db, orgId(h.instance), Number(documentId));

  it('posts the audio as multipart and stores timed segments as pages that detection and summary read', async () => {
    server = await fakeServer(() => ({ status: 200, body: VERBOSE }));
    Object.assign(h.instance.runtime.config.transcription, { endpoint: server.url, model: 'Systran/faster-whisper-small' });
    const audio = wavFile();
    const documentId = await upload(h.instance, 'interview.wav', audio);
    const result = completed<TranscriptionResult>(await runJob(h.instance, documentId, 'transcription', { language: 'en', prompt: 'Whitfield' }));
    expect(result).toEqual({ segments: 3, words: 17, duration: 9.5, language: 'english', model: 'Systran/faster-whisper-small', word_timestamps: 'engine', characters: 93 });

    const request = server.received[0];
    expect(request).toMatchObject({ method: 'POST', path: '/v1/audio/transcriptions' });
    expect(request?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formDataOf(request as NonNullable<typeof request>);
    const file = form.get('file');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('interview.wav');
    expect(Buffer.from(await (file as File).arrayBuffer()).equals(audio)).toBe(true);
    expect([form.get('model'), form.get('response_format'), form.getAll('timestamp_granularities[]'), form.get('language'), form.get('prompt')]).toEqual([
      'Systran/faster-whisper-small',
      'verbose_json',
      ['segment', 'word'],
      'en',
      'Whitfield',
    ]);

    const pages = await pagesOf(documentId);
    expect(pages.map((page) => [page.page_number, page.source, page.unit, page.text, page.width])).toEqual([
      [1, 'transcript', 'seconds', 'Hello, this is Officer Dana Whitfield.', 3.2],
      [2, 'transcript', 'seconds', 'My phone number is 217 555 0143.', 3.8],
      [3, 'transcript', 'seconds', 'The suspect fled north.', 2.5],
    ]);
    const words = z.array(PageWord).parse(JSON.parse(pages[1]?.words ?? '[]'));
    expect(words.map((word) => [word.text, word.start, word.end, word.confidence])).toEqual([
      ['My', 3.2, 3.5, 90], ['phone', 3.5, 3.9, 90], ['number', 3.9, 4.4, 90], ['is', 4.4, 4.6, 90], ['217', 4.6, 5.3, 90], ['555', 5.3, 6.0, 90], ['0143.', 6.0, 7.0, 90],
    ]);

    const detection = completed<DetectionResult>(await runJob(h.instance, documentId, 'detection'));
    expect(detection).toMatchObject({ unit: 'seconds', suggested: 0, suggestions: [], note: expect.stringMatching(/time spans/) });
    expect(detection.time_spans).toEqual([
      { entity: 'person_name', page: 1, start: 1.6, end: 3.2, score: expect.any(Number) },
      { entity: 'phone', page: 2, start: 4.6, end: 7, score: expect.any(Number) },
    ]);
    const summary = completed<SummaryResult>(await runJob(h.instance, documentId, 'summary', { sentences: 1 }));
    expect(summary.summary).toMatch(/^(Hello, this is Officer Dana Whitfield\.|My phone number is 217 555 0143\.|The suspect fled north\.)$/);
  });

  it('segments without word times get estimated ones; a shorter new transcript replaces the old pages', async () => {
    server = await fakeServer(() => ({ status: 200, body: { text: 'Two words. Then three more.', segments: [{ start: 10, end: 12, text: 'Two words.' }, { start: 12, end: 15, text: 'Then three more.' }] } }));
    h.instance.runtime.config.transcription.endpoint = server.url;
    const documentId = await upload(h.instance, 'call.wav', wavFile(0.1));
    await storePages(h.instance, documentId, [layoutPage(['old 1']), layoutPage(['old 2']), layoutPage(['old 3'])], { unit: 'seconds', source: 'transcript' });
    const result = completed<TranscriptionResult>(await runJob(h.instance, documentId, 'transcription'));
    expect(result).toMatchObject({ segments: 2, words: 5, duration: 15, language: null, word_timestamps: 'estimated' });
    const pages = await pagesOf(documentId);
    expect(pages.map((page) => page.text)).toEqual(['Two words.', 'Then three more.']);
    const words = z.array(PageWord).parse(JSON.parse(pages[0]?.words ?? '[]'));
    // 'Two ' is 4 of the 11 characters (with spaces) of the 2-second segment.
    expect(words.map((word) => [word.text, word.start, word.end])).toEqual([
      ['Two', 10, 10.727],
      ['words.', 10.727, 12],
    ]);
  });

  it('without transcription.endpoint the job fails naming the setting; a PDF fails clearly; a server error is reported', async () => {
    const audioId = await upload(h.instance, 'memo.wav', wavFile(0.1));
    const unconfigured = await runJob(h.instance, audioId, 'transcription');
    expect(unconfigured.status).toBe('failed');
    expect(unconfigured.error_message).toBe(
      'the transcription job failed: no transcription engine is configured: set transcription.endpoint in config.json to an OpenAI-compatible speech-to-text server (whisper.cpp server, faster-whisper-server, LocalAI)',
    );

    server = await fakeServer(() => ({ status: 200, body: VERBOSE }));
    h.instance.runtime.config.transcription.endpoint = server.url;
    const pdf = await runJob(h.instance, await upload(h.instance, 'letter.pdf', minimalPdf('A letter')), 'transcription');
    expect(pdf.error_message).toBe('the transcription job failed: transcription applies to audio and video documents; this one is pdf (use an OCR job for PDFs and images)');
    expect(server.received).toHaveLength(0);

    await server.close();
    server = await fakeServer(() => ({ status: 400, body: { error: { message: 'unsupported audio format' } } }));
    h.instance.runtime.config.transcription.endpoint = server.url;
    const refused = await runJob(h.instance, audioId, 'transcription');
    expect(refused.error_message).toBe(`the transcription job failed: ${server.url}/v1/audio/transcriptions answered HTTP 400: {"error":{"message":"unsupported audio format"}}`);
    expect(await pagesOf(audioId)).toEqual([]);
  });
});
