import { crashStep } from "./config.server";

/** How often this process reached each step named with a count. */
const passes: Record<string, number> = {};

/**
 * Fault injection for the crash tests (test/integration/crash-*.test.ts): when CONSIGN_CRASH_AT names a
 * step, the process dies there at once, as a `kill -9` would leave it: no finally blocks, no flushing;
 * `step#n` dies the n-th time the process reaches it (a sync's third saved piece: `mirror-sync:piece-saved#3`).
 * Unset in every real deployment, where each call is a comparison and nothing else.
 */
export function crashPoint(step: string): void {
  const at = crashStep();
  if (!at?.startsWith(step)) return;
  if (at === step || at === `${step}#${(passes[step] = (passes[step] ?? 0) + 1)}`) process.kill(process.pid, "SIGKILL");
}
