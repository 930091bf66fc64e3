import fs from 'node:fs';
import { z } from 'zod';

// Clients of the OpenAI-compatible servers an office may run on its own network: a chat endpoint for
// summaries (llama.cpp server, Ollama) and a speech-to-text endpoint (whisper.cpp server,
// faster-whisper-server, LocalAI). Network I/O stays in the main process; workers do CPU work only.

/** A failure of the remote server, with a message fit for a job's result or error_message. */
export class EndpointError extends Error {
  override name = 'EndpointError';
}

function endpointUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '').replace(/\/v1$/, '')}${path}`;
}

/** The job's signal plus the endpoint's own time limit. */
function withTimeout(signal: AbortSignal, seconds: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(seconds * 1000)]);
}

async function send(url: string, init: RequestInit, signal: AbortSignal, seconds: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: withTimeout(signal, seconds) });
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${seconds} s` : errorText(error);
    throw new EndpointError(`${url} could not be reached: ${reason}`);
  }
  const body = await response.text();
  if (!response.ok) throw new EndpointError(`${url} answered HTTP ${response.status}: ${body.slice(0, 200).trim() || response.statusText}`);
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new EndpointError(`${url} answered with something other than JSON: ${body.slice(0, 100)}`);
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

const ChatAnswer = z.looseObject({
  choices: z.array(z.looseObject({ message: z.looseObject({ content: z.string().nullable() }) })).min(1),
  model: z.string().optional(),
});

export interface ChatSettings {
  endpoint: string;
  model: string;
  timeoutSeconds: number;
}

/** Asks the chat endpoint for a summary of `text` in about `sentences` sentences; returns its text. */
export async function chatSummary(settings: ChatSettings, text: string, sentences: number, signal: AbortSignal): Promise<{ summary: string; model: string }> {
  const url = endpointUrl(settings.endpoint, '/v1/chat/completions');
  const body = {
    model: settings.model,
    temperature: 0.2,
    stream: false,
    messages: [
      {
        role: 'system',
        content:
          `You summarise public records for a records officer. Write a neutral, factual summary of the document in at most ${sentences} sentences. ` +
          'Say what the document is, who it is from and to, what it is about, and any dates, decisions or requests. Do not add facts. Plain prose, no headings.',
      },
      { role: 'user', content: text },
    ],
  };
  const parsed = ChatAnswer.safeParse(await send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, signal, settings.timeoutSeconds));
  if (!parsed.success) throw new EndpointError(`${url} answered without choices[0].message.content`);
  // Reasoning models put their thinking in <think> tags ahead of the answer.
  const summary = (parsed.data.choices[0]?.message.content ?? '').replace(/<think>[^]*?<\/think>/g, '').trim();
  if (!summary) throw new EndpointError(`${url} answered with an empty summary`);
  return { summary, model: parsed.data.model ?? settings.model };
}

const TimedWord = z.looseObject({ word: z.string(), start: z.number(), end: z.number(), probability: z.number().optional() });
const Segment = z.looseObject({ start: z.number(), end: z.number(), text: z.string(), avg_logprob: z.number().optional(), words: z.array(TimedWord).optional() });
export const VerboseTranscription = z.looseObject({
  text: z.string().optional(),
  language: z.string().optional(),
  duration: z.number().optional(),
  segments: z.array(Segment).optional(),
  words: z.array(TimedWord).optional(),
});
export type VerboseTranscription = z.infer<typeof VerboseTranscription>;

export interface TranscriptionSettings {
  endpoint: string;
  model: string;
  timeoutSeconds: number;
}

/** Sends the file as multipart to /v1/audio/transcriptions asking for verbose_json with segment and word times. */
export async function transcribeFile(
  settings: TranscriptionSettings,
  file: { path: string; name: string; mediaType: string },
  options: { language?: string | undefined; prompt?: string | undefined },
  signal: AbortSignal,
): Promise<VerboseTranscription> {
  const url = endpointUrl(settings.endpoint, '/v1/audio/transcriptions');
  const form = new FormData();
  // openAsBlob streams from disk: an hour of audio is not read into memory first.
  form.append('file', await fs.openAsBlob(file.path, { type: file.mediaType }), file.name);
  form.append('model', settings.model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  form.append('timestamp_granularities[]', 'word');
  if (options.language) form.append('language', options.language);
  if (options.prompt) form.append('prompt', options.prompt);
  const parsed = VerboseTranscription.safeParse(await send(url, { method: 'POST', body: form }, signal, settings.timeoutSeconds));
  if (!parsed.success) throw new EndpointError(`${url} did not answer in the verbose_json format: ${z.prettifyError(parsed.error).slice(0, 200)}`);
  if (!parsed.data.segments && parsed.data.text === undefined) throw new EndpointError(`${url} answered without segments or text`);
  return parsed.data;
}
