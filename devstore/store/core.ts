import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { isoAt, systemClock, type Clock } from "../clock.js";
import { SCHEMA_SQL, SCHEMA_VERSION } from "./schema.js";
import type { StoreEvent } from "./types.js";

export type StoreListener = (event: StoreEvent) => void;

/**
 * What every area of the store stands on: better-sqlite3 over the local admin's own database (WAL), cached
 * prepared statements, the clock, and events. Reads are plain methods; writes that a webhook subscriber cares
 * about go through `transaction`, which emits StoreEvents after commit. The areas (shop.ts, orders.ts,
 * fulfillments.ts, access-tokens.ts, webhook-deliveries.ts, bulk-operation-rows.ts) add their rows' methods
 * to it in store.ts.
 */
export class StoreCore {
  readonly db: Database.Database;
  readonly clock: Clock;
  private listeners = new Set<StoreListener>();
  private pending: StoreEvent[] | null = null;
  private mutedDepth = 0;

  constructor(dbPath: string, clock: Clock = systemClock) {
    if (dbPath !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
    this.db = new Database(dbPath);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("synchronous = NORMAL");
    this.db.exec(SCHEMA_SQL);
    // A store created before orders had custom attributes gets the column (CREATE TABLE IF NOT EXISTS keeps the old table).
    const orderColumns = this.db.prepare("SELECT name FROM pragma_table_info('orders')").all() as { name: string }[];
    if (!orderColumns.some((column) => column.name === "custom_attributes_json")) {
      this.db.exec("ALTER TABLE orders ADD COLUMN custom_attributes_json TEXT NOT NULL DEFAULT '[]'");
    }
    // …and before orders had customers: its orders stay guests' (no Order.customer), as Shopify's older guest checkouts.
    if (!orderColumns.some((column) => column.name === "customer_id")) {
      this.db.exec("ALTER TABLE orders ADD COLUMN customer_id INTEGER REFERENCES customers(id)");
    }
    // …and before Flow's trigger runs said whether a workflow was on: their rows say nothing (NULL).
    const triggerRunColumns = this.db.prepare("SELECT name FROM pragma_table_info('flow_trigger_runs')").all() as { name: string }[];
    if (!triggerRunColumns.some((column) => column.name === "workflow_on")) this.db.exec("ALTER TABLE flow_trigger_runs ADD COLUMN workflow_on INTEGER");
    this.sql("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
    this.clock = clock;
  }

  close(): void {
    this.db.close();
  }

  private statements = new Map<string, Database.Statement>();

  /** A prepared statement, cached by its text (seeding 10,000 orders prepares each statement once). */
  sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** One row by id (for the store's areas). */
  byId<T>(table: string, id: number): T | undefined {
    return this.sql(`SELECT * FROM ${table} WHERE id = ?`).get(id) as T | undefined;
  }

  /** Rows whose column equals value, ordered (for the store's areas). */
  where<T>(table: string, column: string, value: unknown, orderBy: string): T[] {
    return this.sql(`SELECT * FROM ${table} WHERE ${column} = ? ORDER BY ${orderBy}`).all(value) as T[];
  }

  now(): string {
    return isoAt(this.clock);
  }

  // ---------------------------------------------------------------- events and transactions

  onEvent(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: StoreEvent): void {
    if (this.mutedDepth > 0) return;
    if (this.pending) this.pending.push(event);
    else this.dispatch([event]);
  }

  /** Runs fn in one SQLite transaction (nested calls become savepoints); events are delivered after the outermost commit. */
  transaction<T>(fn: () => T): T {
    const outermost = this.pending === null;
    if (outermost) this.pending = [];
    try {
      const result = this.db.transaction(fn)();
      if (outermost) {
        const events = this.pending ?? [];
        this.pending = null;
        this.dispatch(events);
      }
      return result;
    } catch (error) {
      if (outermost) this.pending = null;
      throw error;
    }
  }

  /** Runs fn without emitting events (seeding builds history that must not reach the app as webhooks). */
  muted<T>(fn: () => T): T {
    this.mutedDepth++;
    try {
      return fn();
    } finally {
      this.mutedDepth--;
    }
  }

  private dispatch(events: StoreEvent[]): void {
    for (const event of events) for (const listener of this.listeners) listener(event);
  }

  isEmpty(): boolean {
    return this.countRows("shop") === 0;
  }

  countRows(table: "shop" | "orders" | "products" | "locations" | "fulfillments" | "webhook_deliveries"): number {
    return (this.sql(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  }
}
