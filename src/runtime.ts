/**
 * The V8 settings the service's processes run with. They are given on the `node` command line (the
 * `start` and `demo` scripts, the container's command, the benchmark's servers), since Node does not
 * support changing V8 flags once the process runs, and NODE_OPTIONS does not accept these two.
 *
 * --no-liftoff: the embedded PGlite is PostgreSQL compiled to WebAssembly. V8 compiles each WASM function
 *   on first call with its baseline compiler (Liftoff), then recompiles the hot ones with its optimizing
 *   compiler (TurboFan) on background threads; each of those threads keeps its own malloc arena, and the
 *   compiler memory freed there stays resident: about 100 MB for PostgreSQL's code. Compiling with
 *   TurboFan straight away avoids that; it costs about a second more at start-up. Servers on PostgreSQL
 *   run no WASM: the flag changes nothing for them.
 * --heap-growing-percent=100: under load V8 lets the old generation grow to up to four times what a full
 *   GC left alive before it collects again: about 120 MB more resident during a sustained load on this
 *   service, returned only ~30 s after the load stops. A factor of 2 (what V8 itself uses when memory is
 *   constrained) keeps that under ~40 MB, for no measurable CPU per request (bench/memory.ts).
 *
 * package.json's scripts and the Dockerfile spell them out; test/e2e/deploy-config.test.ts keeps them equal.
 */
export const NODE_FLAGS: readonly string[] = ['--heap-growing-percent=100', '--max-semi-space-size=8', '--no-liftoff'];
