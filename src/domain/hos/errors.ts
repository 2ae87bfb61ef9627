/**
 * The HOS engine's input errors. Pure domain code may not import src/lib, so this mirrors the
 * project's DomainError shape: a stable code, a message that says what is wrong, and statusCode 400
 * so an HTTP layer that does not map it explicitly still answers 400.
 */
export type HosErrorCode = 'INVALID_SNAPSHOT' | 'INVALID_TIMELINE' | 'INVALID_ARGUMENT';

export class HosError extends Error {
  readonly statusCode = 400 as const;

  constructor(
    readonly code: HosErrorCode,
    message: string,
    /** The input field at fault, e.g. "hoursSinceBreak" or "timeline[3].start". */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'HosError';
  }
}

export const isHosError = (err: unknown): err is HosError => err instanceof HosError;
