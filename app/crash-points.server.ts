/**
 * Fault injection for the crash tests (test/integration/crash-*.test.ts): when CONSIGN_CRASH_AT names a
 * step, the process dies there at once, as a `kill -9` would leave it: no finally blocks, no flushing.
 * Unset in every real deployment, where each call is a comparison and nothing else.
 */
export function crashPoint(step: string): void {
  if (process.env.CONSIGN_CRASH_AT === step) process.kill(process.pid, "SIGKILL");
}
