// The one place that talks HTTP. Both surfaces use the same session cookie (HttpOnly, set by sign-in), so no
// credential is ever held in JavaScript. /api/v1 writes carry an Idempotency-Key that callers keep for a
// logical action, so a retry after a failed request can never apply the action twice.
import { ApiError } from './errors.js';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Query;
  /** /api/v1 POST/PUT/PATCH: reuse the same key when retrying the same action. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Lets the request finish after the page is closed (releasing locks on the way out). */
  keepalive?: boolean;
}

type Listener = () => void;
const sessionEndedListeners = new Set<Listener>();

/** Called when any request answers 401: the session expired or was ended elsewhere. */
export function onSessionEnded(listener: Listener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

export function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function errorFromBody(status: number, body: Record<string, unknown> | null, fallback: string): ApiError {
  // /api/v1 envelope: {error: {code, message}}; application API: {success: false, error: "text", message, code}.
  const envelope = body?.error;
  if (envelope && typeof envelope === 'object') {
    const record = envelope as Record<string, unknown>;
    return new ApiError(status, String(record.code ?? 'error'), String(record.message ?? fallback), body);
  }
  const message = typeof body?.error === 'string' ? body.error : typeof body?.message === 'string' ? body.message : fallback;
  const code = typeof body?.code === 'string' ? body.code : status === 401 ? 'authentication_failed' : `http_${status}`;
  return new ApiError(status, code, message, body);
}

async function parseBody(response: Response): Promise<Record<string, unknown> | null> {
  const text = await response.text();
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    return { message: text.slice(0, 500) };
  }
}

/** Sends a JSON request and returns the parsed body, or throws ApiError with the server's reason. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (path.startsWith('/api/v1/') && (method === 'POST' || method === 'PUT' || method === 'PATCH')) {
    headers['Idempotency-Key'] = options.idempotencyKey ?? newIdempotencyKey();
  }
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      ...(options.signal && { signal: options.signal }),
      ...(options.keepalive && { keepalive: true }),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'the server could not be reached');
  }
  if (response.status === 204) return undefined as T;
  const body = await parseBody(response);
  if (!response.ok) {
    const error = errorFromBody(response.status, body, response.statusText || `request failed (${response.status})`);
    // Sign-in and the session probe answer 401 as a normal outcome, not as an ended session.
    if (response.status === 401 && !path.startsWith('/api/auth/')) for (const listener of sessionEndedListeners) listener();
    throw error;
  }
  return body as T;
}

export interface Page<T> {
  data: T[];
  cursor: string | null;
}

/** Walks every page of an /api/v1 list (100 per request). */
export async function listAll<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await request<Page<T>>(path, { query: { ...query, limit: 100, cursor }, ...(signal && { signal }) });
    items.push(...page.data);
    cursor = page.cursor;
  } while (cursor);
  return items;
}

export interface Single<T> {
  data: T;
}
