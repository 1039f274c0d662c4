import { readFileSync } from "node:fs";

/** Figures the benches and the fuzz run print. */

/** The middle value (the upper middle of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A process's peak resident set (VmHWM), in MB: this process's unless a pid is given; null once it is gone. */
export function peakRssMb(pid: number | "self" = "self"): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** The process's memory settings as it ran with them (package.json gives the app's processes these). */
export function memorySettings(): string {
  return `NODE_OPTIONS=${process.env.NODE_OPTIONS ?? ""} MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? ""}`;
}
