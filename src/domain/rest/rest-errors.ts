/**
 * The rest optimizer's input error. Pure domain code may not import src/lib, so this mirrors the
 * project's DomainError shape: code VALIDATION, the spec's message "Validation failed", and one
 * field-level detail per problem (field paths are relative to the request body, e.g.
 * "driver_state.hours_driven"). It also carries statusCode 400, so even an HTTP layer that does not
 * map it explicitly answers 400 with the spec's message; a route should map it to
 * `new DomainError('VALIDATION', err.message, err.details)` to keep the details.
 */
export interface FieldIssue {
  field: string;
  message: string;
}

export class RestInputError extends Error {
  readonly code = 'VALIDATION' as const;
  readonly statusCode = 400 as const;
  readonly details: FieldIssue[];

  constructor(details: FieldIssue[]) {
    super('Validation failed');
    this.name = 'RestInputError';
    this.details = details;
  }

  /** "driver_state.hours_driven must be …; dock_duration_hours must be …" (for logs and test messages). */
  get summary(): string {
    return this.details.map((d) => `${d.field} ${d.message}`).join('; ');
  }
}

export const isRestInputError = (err: unknown): err is RestInputError => err instanceof RestInputError;
