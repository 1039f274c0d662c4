import type { Store } from "./store.js";
import type { BulkOperationRow } from "./types.js";

/** Bulk operations' rows (devstore/bulk/ runs them). */
export const bulkOperationRows = {
  insertBulkOperation(this: Store, query: string): number {
    const info = this.sql("INSERT INTO bulk_operations (type, status, query, created_at) VALUES ('QUERY', 'CREATED', ?, ?)").run(query, this.now());
    return Number(info.lastInsertRowid);
  },

  updateBulkOperation(this: Store, id: number, fields: Partial<Omit<BulkOperationRow, "id">>): void {
    const keys = Object.keys(fields);
    if (keys.length === 0) return;
    this.sql(`UPDATE bulk_operations SET ${keys.map((k) => `${k} = @${k}`).join(", ")} WHERE id = @id`).run({ ...fields, id });
  },

  /** Appends a part of an operation's JSONL (its next page's lines). */
  appendBulkOperationResult(this: Store, id: number, part: number, jsonl: string): void {
    this.sql("INSERT INTO bulk_operation_results (operation_id, part, jsonl) VALUES (?, ?, ?)").run(id, part, jsonl);
  },

  /** Part `part` of an operation's JSONL, or undefined past its last. */
  bulkOperationResult(this: Store, id: number, part: number): string | undefined {
    const row = this.sql("SELECT jsonl FROM bulk_operation_results WHERE operation_id = ? AND part = ?").get(id, part) as { jsonl: string } | undefined;
    return row?.jsonl;
  },

  getBulkOperation(this: Store, id: number): BulkOperationRow | undefined {
    return this.byId<BulkOperationRow>("bulk_operations", id);
  },

  currentBulkOperation(this: Store, type: string): BulkOperationRow | undefined {
    return this.sql("SELECT * FROM bulk_operations WHERE type = ? ORDER BY id DESC LIMIT 1").get(type) as BulkOperationRow | undefined;
  },

  runningBulkOperations(this: Store): number {
    return (this.sql("SELECT COUNT(*) AS n FROM bulk_operations WHERE status IN ('CREATED', 'RUNNING')").get() as { n: number }).n;
  },
};
