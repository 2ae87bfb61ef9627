import v8 from 'node:v8';

/**
 * V8 settings of a server process, applied before anything is compiled or allocated in quantity.
 * Node warns that changing flags at run time is unsupported; these two are read where V8 uses them
 * (WASM compilation of a module, each full GC), so setting them at the start of the process works
 * (measured by bench/memory.ts: resident memory, and CPU per request unchanged).
 */
export function tuneRuntime(opts: { embeddedDatabase: boolean }): void {
  // The embedded PGlite is PostgreSQL compiled to WebAssembly. V8 compiles each WASM function on first
  // call with its baseline compiler (Liftoff), then recompiles the hot ones with its optimizing compiler
  // (TurboFan) on background threads; each of those threads keeps its own malloc arena, and the compiler
  // memory freed there stays resident: about 100 MB for PostgreSQL's code. Compiling with TurboFan
  // straight away, on the calling thread, avoids that; it costs about a second more at start-up (the
  // functions the migrations use are compiled then) and the code runs at optimized speed from its
  // first call. Servers on PostgreSQL run no WASM.
  if (opts.embeddedDatabase) v8.setFlagsFromString('--no-liftoff');
  // Under load V8 lets the old generation grow to up to four times what a full GC left alive before it
  // collects again (its growing factor adapts to the allocation rate): about 120 MB more resident
  // during a sustained load on this service, returned only ~30 s after the load stops. A factor of 2
  // (what V8 itself uses when memory is constrained) keeps that under ~40 MB, for no measurable CPU
  // per request (bench/memory.ts, 3 runs each).
  v8.setFlagsFromString('--heap-growing-percent=100');
}
