import fc from 'fast-check';

/**
 * Property-based tests are deterministic: one fixed seed for every fc.assert that does not set its own
 * (a failure prints its seed and path, so it can be replayed).
 */
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });

/**
 * Outbound HTTP that no test expected fails the test: fetch may reach only this machine
 * (local fakes such as the JWKS server), never the network.
 */
const GUARDED = Symbol.for('fleet.test.fetchGuarded');
const current = globalThis.fetch as typeof fetch & { [GUARDED]?: true };
// Once per process: test files that share a worker process (isolate: false) must not wrap it again.
if (!current[GUARDED]) {
  const realFetch = current;
  globalThis.fetch = Object.assign(
    (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (!['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
        throw new Error(`test attempted outbound HTTP to ${url.hostname}; only local fakes are allowed`);
      }
      return realFetch(input, init);
    }) as typeof fetch,
    { [GUARDED]: true as const },
  );
}
