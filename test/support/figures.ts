import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appliedMemoryFlags } from "../../lib/memory";

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

/**
 * The environment `npm start` gives the app's process (the assignments before `node` in package.json's `start`
 * script: its memory settings), for a test or bench that starts the built app itself: read from the script, so the
 * two cannot drift apart.
 */
export function startScriptEnv(): Record<string, string> {
  const script = (JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
  const env: Record<string, string> = {};
  const assignment = /^([A-Z_][A-Z0-9_]*)=(?:'([^']*)'|(\S+))\s+/;
  let rest = script;
  for (let found = assignment.exec(rest); found; found = assignment.exec(rest)) {
    env[found[1]!] = found[2] ?? found[3]!;
    rest = rest.slice(found[0].length);
  }
  if (!env.NODE_OPTIONS) throw new Error(`package.json's start script sets no NODE_OPTIONS before node: ${script}`);
  return env;
}

/**
 * The process's memory settings as it ran with them (package.json gives the app's processes these), and the flags it
 * set itself (lib/memory.ts), which only an app process does.
 */
export function memorySettings(): string {
  const own = appliedMemoryFlags();
  return `NODE_OPTIONS=${process.env.NODE_OPTIONS ?? ""} MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? ""} MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_ ?? ""}${own ? ` ${own} (lib/memory.ts)` : ""}`;
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

/**
 * Samples this process's memory every `everyMs` until stopped, and says what its resident set held at the
 * largest sample: V8's heap (and how much of it was in use), memory outside it (buffers, WebAssembly memory such
 * as Prisma's query compiler's) and the rest (code, native libraries, SQLite's cache, allocator slack). What a
 * peak is made of decides what can lower it.
 */
export function sampleMemory(everyMs = 100): { phase(name: string): void; atPeak(): string } {
  let peak = process.memoryUsage();
  let current = "start";
  let peakPhase = current;
  // The peak itself is the kernel's (peakRssMb); this says what made it up. The resident set alone is read at each
  // sample, the whole breakdown (V8's heap statistics) only at a new peak: the whole of it every 25 ms took 2 % of a
  // quote run's CPU, the resident set alone every 25 ms 1 %.
  const sample = () => {
    if (process.memoryUsage.rss() <= peak.rss) return;
    peak = process.memoryUsage();
    peakPhase = current;
  };
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    /** Names what the process does from now on, so the peak says when it was reached. */
    phase(name: string) {
      sample();
      current = name;
    },
    atPeak() {
      clearInterval(timer);
      const mb = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;
      const rest = peak.rss - peak.heapTotal - peak.external;
      return `at the largest sample (${mb(peak.rss)} resident, during ${peakPhase}): V8 heap ${mb(peak.heapTotal)} (${mb(peak.heapUsed)} in use), outside it ${mb(peak.external)} (${mb(peak.arrayBuffers)} array buffers and WebAssembly memory), the rest ${mb(rest)} (code, native libraries, database caches, allocator)`;
    },
  };
}
