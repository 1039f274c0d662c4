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

/** A process's CPU time so far (user + system, from /proc/<pid>/stat, in clock ticks of 1/100 s), in seconds; null once it is gone. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The app's peak RSS target (issue 30) and the figure against it, as every bench prints it. */
export const TARGET_RSS_MB = 250;
export function rssAgainstTarget(mb: number | null): string {
  if (mb === null) return "? MB (the process was gone)";
  return `${mb.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB} MB: ${mb <= TARGET_RSS_MB ? "met" : "MISSED"})`;
}
