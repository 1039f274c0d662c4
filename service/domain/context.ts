import { type Catalog, createCatalog } from "../catalog";
import type { Clock } from "../clock";
import type { ServiceStore } from "../db/store";
import { type SecretBox, createSecretBox } from "../secrets";

/** What every domain operation gets: dependencies come in, nothing is reached for globally. */
export interface DomainContext {
  store: ServiceStore;
  clock: Clock;
  catalog: Catalog;
  secrets: SecretBox;
  /** Labels older than this are purged (View Batch Labels then skips them). */
  labelRetentionDays: number;
}

/** The context of a running service (or of a CLI working on its database): catalog and label retention default. */
export function createDomainContext(options: {
  store: ServiceStore;
  clock: Clock;
  /** Key material for sealing provider-account secrets (AES-256-GCM). */
  secretsKey: string;
  catalog?: Catalog;
  /** Default 90. */
  labelRetentionDays?: number;
}): DomainContext {
  return {
    store: options.store,
    clock: options.clock,
    catalog: options.catalog ?? createCatalog(),
    secrets: createSecretBox(options.secretsKey),
    labelRetentionDays: options.labelRetentionDays ?? 90,
  };
}

/** Quotes are valid this long after creation. */
export const QUOTE_VALIDITY_DAYS = 30;
