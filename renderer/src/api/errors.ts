// One error type for every failed request, whichever surface answered, with a message fit for a clerk.
import { formatMessage } from '../domain/format.js';

export interface FieldProblem {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached at all. */
    readonly status: number,
    /** Machine code from the server (`validation_error`, `locked`, …) or `network_error`. */
    readonly code: string,
    message: string,
    /** The parsed JSON body, for the fields a caller needs (currentVersion, locked_by, …). */
    readonly body: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get fieldProblems(): FieldProblem[] {
    const details = this.body?.details ?? (this.body?.error as Record<string, unknown> | undefined)?.details;
    if (!Array.isArray(details)) return [];
    return details.flatMap((detail: unknown) => {
      if (typeof detail !== 'object' || detail === null) return [];
      const record = detail as Record<string, unknown>;
      return typeof record.field === 'string' && typeof record.message === 'string' ? [{ field: record.field, message: record.message }] : [];
    });
  }
}

const PLAIN_WORDS: Record<string, string> = {
  network_error: 'Obscura could not reach its server. Check that it is still running, then try again.',
  authentication_failed: 'Your session has ended. Sign in again to continue.',
  permission_denied: 'Your account is not allowed to do this. Ask an administrator for the right role.',
  resource_not_found: 'This item no longer exists, or you do not have access to it.',
  rate_limited: 'Too many requests in a short time. Wait a moment, then try again.',
  internal_error: 'Something went wrong on the server. Nothing was lost; try again.',
  service_unavailable: 'The server is restarting or busy. Try again in a moment.',
  payload_too_large: 'This is larger than the server accepts.',
  unsupported_media_type: 'This kind of file is not supported. Use PDF, PNG, JPEG, TIFF, audio or video.',
};

/**
 * A sentence for the user, from anything thrown: the one error formatter of the UI (never "[object Object]").
 * Validation and state errors keep the server's own (specific) text.
 */
export function plainMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'validation_error') {
      const problems = error.fieldProblems;
      if (problems.length > 0) return `Please check: ${problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}.`;
      return capitalise(error.message);
    }
    if (error.code === 'conflict' || error.code === 'invalid_transition' || error.code === 'locked') return capitalise(error.message);
    return PLAIN_WORDS[error.code] ?? capitalise(error.message);
  }
  // pdf.js rejects with its own exception objects (not always Error instances across realms and workers).
  const { name, message } = fieldsOf(error);
  if (name === 'PasswordException') return 'This PDF is password-protected: it opens once its password has been supplied for the document.';
  if (message) return capitalise(message);
  if (typeof error === 'string') return capitalise(error);
  return 'Something went wrong. Try again.';
}

/** The raw text of anything thrown, for composing a longer sentence. */
export function errorText(error: unknown): string {
  const { name, message } = fieldsOf(error);
  if (message) return message;
  if (typeof error === 'string' && error.trim() !== '') return error;
  return name ?? 'unknown error';
}

function fieldsOf(error: unknown): { name: string | null; message: string | null } {
  if (error === null || typeof error !== 'object') return { name: null, message: null };
  const record = error as { name?: unknown; message?: unknown };
  return {
    name: typeof record.name === 'string' ? record.name : null,
    message: typeof record.message === 'string' && record.message.trim() !== '' ? record.message : null,
  };
}

/** The server's sentence in the shared formatter's words (dates as dates, no snake_case), ending with a stop. */
function capitalise(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return 'Something went wrong. Try again.';
  const sentence = formatMessage(trimmed);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
