/**
 * Where the process is in its life, as the readiness check reports it: serving, or draining (SIGTERM was
 * received: load balancers should send it nothing new while it finishes what it has).
 */
export class Lifecycle {
  private drainingSince: Date | undefined;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** From now on the process reports not-ready. */
  drain(at: Date = new Date()): void {
    this.drainingSince ??= at;
  }
}
