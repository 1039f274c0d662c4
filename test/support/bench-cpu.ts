import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { availableParallelism, loadavg } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * What the benches print beside wall times, which other processes' load stretches: the CPU this process spent
 * (its own work, whatever the machine's load), the machine's load as it was, and on request a CPU profile of the
 * part measured.
 */

/** CPU (user + system) this process has spent since `since` (a `process.cpuUsage()`), in ms. */
export function cpuMsSince(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

/** V8's full collection, exposed to this process once (a bench's own, never the app's). */
let fullCollection: (() => void) | undefined;

/**
 * Collects the garbage a bench made itself before a part it measures: a bench's own work between two measured parts
 * (reading back what a run stored, timing the service alone on it) leaves megabytes of garbage, which the next part
 * would otherwise collect in its own time. Production has no such reads between a merchant's actions.
 */
export function collectBenchGarbage(): void {
  if (!fullCollection) {
    setFlagsFromString("--expose-gc");
    fullCollection = runInNewContext("gc") as () => void;
  }
  fullCollection();
}

/**
 * The machine's load as the figures were taken, stated with them: "machine idle" or "machine busy" against its
 * cores, and the 1, 5 and 15 minute load averages.
 */
export function machineLoad(): string {
  const [one, five, fifteen] = loadavg() as [number, number, number];
  const cores = availableParallelism();
  return `${one > cores * 0.5 ? "machine busy" : "machine idle"}: loadavg ${[one, five, fifteen].map((value) => value.toFixed(2)).join(" ")} on ${cores} cores`;
}

/**
 * When `file` names a file (each bench passes its own variable's: no default, so a part or a process given none
 * never profiles into another's file), profiles this process's CPU from now until the
 * returned function is called, which writes the profile there (open it in Chrome's DevTools or summarise it by
 * package). Otherwise does nothing.
 */
export async function profileCpu(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => {};
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`CPU profile of the measured part: ${file}`);
  };
}
