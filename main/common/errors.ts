/** Error codes of both API surfaces; the HTTP layer maps each to its status. */
export const ERROR_STATUS = {
  validation_error: 400,
  authentication_failed: 401,
  permission_denied: 403,
  resource_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  invalid_transition: 409,
  idempotency_key_reused: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  locked: 423,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  /** Dotted path of the offending field, or the header or parameter name. */
  field: string;
  message: string;
}

/** A failure the caller can act on; thrown by services, rendered by the HTTP layer. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string) => new DomainError('resource_not_found', `${what} not found`);
