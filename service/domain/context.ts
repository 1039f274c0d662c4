import type { Catalog } from "../catalog";
import type { Clock } from "../clock";
import type { ServiceStore } from "../db/store";
import type { SecretBox } from "../secrets";

/** What every domain operation gets: dependencies come in, nothing is reached for globally. */
export interface DomainContext {
  store: ServiceStore;
  clock: Clock;
  catalog: Catalog;
  secrets: SecretBox;
  /** Labels older than this are purged (View Batch Labels then skips them). */
  labelRetentionDays: number;
}

/** Quotes are valid this long after creation. */
export const QUOTE_VALIDITY_DAYS = 30;
