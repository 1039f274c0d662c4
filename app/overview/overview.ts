import { z } from "zod";
import type { CarrierPerformance } from "./carrier-performance";

/** The Shipping overview's query and figures, shared by its page, its CSV export and the server module. */

export const PERIODS = [7, 30, 90, 365] as const;
export const OverviewQuery = z.object({
  period: z
    .enum(PERIODS.map(String) as [string, ...string[]], { error: `must be one of ${PERIODS.join(", ")} days` })
    .default("30")
    .transform(Number),
});

export interface SpendRow {
  /** "MRX", or "MRX/MRX_2DAY" for a service: what the row groups by. */
  key: string;
  /** The carrier's (and service's) name from List Services: "Mercury Express · 2Day". */
  label: string;
  carrierCode: string;
  serviceCode: string | null;
  labels: number;
  spend: string;
}

export interface Overview {
  period: { days: number; from: string; to: string };
  currency: string | null;
  labelsBought: number;
  totalSpend: string;
  averageCost: string | null;
  byCarrier: SpendRow[];
  byService: SpendRow[];
  /** `country` is the ISO code ("US"), `name` its name ("United States"). */
  byCountry: Array<{ country: string; name: string; labels: number }>;
  /** On-time rate and transit days by carrier; empty until tracking has seen deliveries. */
  performance: CarrierPerformance[];
  waiting: { orders: number; oldestDays: number | null; byAge: Array<{ label: string; orders: number }> };
}
