/**
 * Domain errors: services throw these with a stable code; one error handler maps them to the spec's
 * error body. Services never know about HTTP.
 */
export type ErrorCode =
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'TENANT_SUSPENDED'
  | 'TENANT_PENDING'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'INVALID_STATE'
  | 'RATE_LIMITED'
  | 'NOT_CONFIGURED'
  | 'PAYLOAD_TOO_LARGE';

export interface ErrorDetail {
  field: string;
  message: string;
  /** Places an address may mean (ambiguous) or the closest names (a near miss), best first. */
  candidates?: string[];
  /** The route the problem is about (a driver already on another ACTIVE route: that one). */
  routeId?: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** 429 whose Retry-After (whole seconds, at least 1) the error handler sends. */
export class RateLimitedError extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(message: (seconds: number) => string, retryAfterMs: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super('RATE_LIMITED', message(seconds));
    this.retryAfterSeconds = seconds;
  }
}

export const notFound = (what: string): DomainError => new DomainError('NOT_FOUND', `${what} not found`);
export const invalid = (message: string, details?: ErrorDetail[]): DomainError => new DomainError('VALIDATION', message, details);
export const invalidState = (message: string, details?: ErrorDetail[]): DomainError => new DomainError('INVALID_STATE', message, details);
export const unauthenticated = (message = 'Authentication required'): DomainError => new DomainError('UNAUTHENTICATED', message);
export const forbidden = (message = 'You do not have permission to perform this action'): DomainError =>
  new DomainError('FORBIDDEN', message);

export const HTTP_STATUS: Record<ErrorCode, number> = {
  VALIDATION: 400,
  INVALID_STATE: 400,
  CONFLICT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  TENANT_SUSPENDED: 403,
  TENANT_PENDING: 403,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  NOT_CONFIGURED: 503,
};

/** A PostgreSQL unique violation (SQLSTATE 23505), from pg or PGlite; optionally on a named index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint || (e.message ?? '').includes(constraint);
}
