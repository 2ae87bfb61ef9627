/**
 * A background job: one pass does what is due at `now` and says how much it did. Implemented by the
 * modules (monitoring, integrations sync, webhook delivery, the outbox dispatcher) and run by the loops
 * of src/workers, so it lives below both.
 */
export interface Worker {
  readonly name: string;
  /** `stopping` is aborted when the process shuts down: a long pass stops taking new work and winds down. */
  runOnce(now: Date, stopping?: AbortSignal): Promise<number>;
  /**
   * Gives back whatever this worker still holds (claims, leases) so that another worker takes it at once,
   * not when the lease runs out. Called when the process stops, after its passes ended or were given up on.
   */
  release?(): Promise<void>;
}
