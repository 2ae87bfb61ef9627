/**
 * The V8 settings the service's processes run with. They are given on the `node` command line (the
 * `start` and `demo` scripts, the container's command, the benchmark's servers), since Node does not
 * support changing V8 flags once the process runs, and NODE_OPTIONS does not accept the first two.
 *
 * --liftoff-only: the embedded PGlite is PostgreSQL compiled to WebAssembly. By default V8 compiles each
 *   WASM function on first call with its baseline compiler (Liftoff), then recompiles the hot ones with its
 *   optimizing compiler (TurboFan) on background threads. On Node 24 TurboFan's work on PostgreSQL's
 *   largest functions peaks the process at 750-900 MiB during start-up and leaves 100+ MiB of freed
 *   compiler memory in malloc arenas (RSS after start 401 MiB by default, 305 with --no-liftoff, which
 *   compiles everything with TurboFan and still peaks at 747 MiB). Liftoff alone: peak and RSS after start
 *   293 / 287 MiB, growth over a 20-s load 39 MiB instead of 74, for 25-30 % more CPU per statement on
 *   PGlite (driver list ~990 vs ~800 µs, plan ~2,800 vs ~2,230 µs; bench/README.md). A process that can
 *   be killed at start-up by a 512 MB memory limit is the worse defect. Servers on PostgreSQL run no WASM:
 *   the flag changes nothing for them.
 * --heap-growing-percent=50: after each full GC, V8 lets the old generation grow to up to four times what
 *   it left alive before it collects again (about 120 MB more resident during a sustained load on this
 *   service, returned only ~30 s after the load stops). 100 (a factor of 2, what V8 itself uses when memory
 *   is constrained) kept that near 40 MB on Node 20, but on Node 24 the growth over the bench's 60-s load
 *   run measured 46-57 MiB on PostgreSQL; 50 (a factor of 1.5): 29 MiB, CPU per request within the runs'
 *   noise (driver list 0.91-0.98 x the baseline in the same run, plan 420-489 µs; bench/README.md).
 * --max-semi-space-size=8: the young generation's two halves, in MB. Node 24 sizes their maximum from the
 *   machine's memory (64 MB each on a 24 GB machine): start-up's allocation bursts (schema compilation)
 *   grew the young generation to 128 MB, and an idle process never shrinks it again. 8 MB each: the app's
 *   RSS after start on PostgreSQL 247 -> 172 MiB and growth over a 20-s load 74 -> 36 MiB, CPU per request
 *   within the bench's noise (plan 547-551 vs 571-622 µs, driver list 116-126 vs 117-152 µs); an in-process
 *   A/B of the plan request (bench/plan-inject.ts) says ~5 % more, and ~10-15 % more with 4 MB.
 *   NODE_OPTIONS accepts this one too; it is on the command line with the others so that they are in one place.
 *
 * package.json's scripts and the Dockerfile spell them out; test/e2e/deploy-config.test.ts keeps them equal.
 */
export const NODE_FLAGS: readonly string[] = ['--heap-growing-percent=50', '--max-semi-space-size=8', '--liftoff-only'];
