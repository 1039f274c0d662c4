import { DAY } from "./schedule";

/**
 * Observed transit times (docs/decisions/006): from the shop's own deliveries, how many days each service
 * takes per zone, counted from the carrier's first pickup scan to delivery. Pure; the read is in
 * tracking-views.server.ts.
 */

/** Fewer deliveries than this say too little: the rates page and the Fastest rule ignore them. */
export const MIN_SAMPLE = 5;

export interface TransitSample {
  carrierCode: string;
  serviceCode: string;
  zone: string | null;
  inTransitAt: Date;
  deliveredAt: Date;
}

export interface TransitStats {
  carrierCode: string;
  serviceCode: string;
  zone: string | null;
  /** Median days in transit. */
  medianDays: number;
  /** The usual range: the 25th and 75th percentiles, in whole days. */
  lowDays: number;
  highDays: number;
  sampleSize: number;
}

/** The shop's observed transit time for a rate's service and zone, when it has enough deliveries. */
export type ObservedTransit = (rate: { carrierCode: string; serviceCode: string; zone?: string | null }) => TransitStats | null;

export const transitKey = (carrierCode: string, serviceCode: string, zone: string | null) => `${carrierCode}/${serviceCode}/${zone ?? ""}`;

/** Whole days in transit: pickup to delivery, rounded to the nearest day, at least 1. */
export function transitDays(sample: Pick<TransitSample, "inTransitAt" | "deliveredAt">): number {
  return Math.max(1, Math.round((sample.deliveredAt.getTime() - sample.inTransitAt.getTime()) / DAY));
}

/** The q-quantile of sorted values (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Statistics per carrier, service and zone, for the groups with at least `minSample` deliveries. */
export function transitStats(samples: readonly TransitSample[], minSample = MIN_SAMPLE): TransitStats[] {
  const groups = new Map<string, { sample: TransitSample; days: number[] }>();
  for (const sample of samples) {
    const key = transitKey(sample.carrierCode, sample.serviceCode, sample.zone);
    const group = groups.get(key) ?? { sample, days: [] };
    group.days.push(transitDays(sample));
    groups.set(key, group);
  }
  const stats: TransitStats[] = [];
  for (const { sample, days } of groups.values()) {
    if (days.length < minSample) continue;
    days.sort((a, b) => a - b);
    const middle = days.length / 2;
    const median = days.length % 2 === 1 ? days[Math.floor(middle)]! : (days[middle - 1]! + days[middle]!) / 2;
    stats.push({
      carrierCode: sample.carrierCode,
      serviceCode: sample.serviceCode,
      zone: sample.zone,
      medianDays: median,
      lowDays: quantile(days, 0.25),
      highDays: quantile(days, 0.75),
      sampleSize: days.length,
    });
  }
  return stats;
}

/** "usually 2–3 days (41 deliveries)". */
export function describeTransit(stats: Pick<TransitStats, "lowDays" | "highDays" | "sampleSize">): string {
  const range = stats.lowDays === stats.highDays ? `${stats.lowDays}` : `${stats.lowDays}–${stats.highDays}`;
  const unit = stats.highDays === 1 ? "day" : "days";
  return `usually ${range} ${unit} (${stats.sampleSize} deliveries)`;
}
