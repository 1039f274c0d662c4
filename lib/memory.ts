import { setFlagsFromString } from "node:v8";

/**
 * The app process's memory settings beside `npm start`'s NODE_OPTIONS (docs/decisions/051). V8 lets its heap grow
 * to twice what was live after a full collection, and more while the app allocates fast: a 5,000-order quote run,
 * with about 75 MB live, took the heap to 145 MB. Grown by 30 % instead, the heap stays near what is live, for a few
 * more collections, each of a few milliseconds on the heap's other threads. Node refuses this flag in NODE_OPTIONS,
 * so each of the app's processes (the server, the worker, the benches' app side) sets it first.
 */
export const HEAP_GROWING_PERCENT = 30;

let applied = false;

export function applyMemorySettings(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  applied = true;
}

/** The V8 flags this process set itself ({@link applyMemorySettings}), as a command line would give them; empty when it set none. */
export function appliedMemoryFlags(): string {
  return applied ? `--heap-growing-percent=${HEAP_GROWING_PERCENT}` : "";
}
