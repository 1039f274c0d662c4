import { randomBytes } from "node:crypto";
import { toShopifyDateTime } from "../clock.js";
import type { Store } from "./store.js";
import type { AccessTokenRow } from "./types.js";

/** Access tokens the token exchange issues, the optional scopes the merchant allowed, and uninstalling the app, which revokes them. */
export const accessTokens = {
  issueAccessToken(this: Store, opts: { kind: "offline" | "online"; scope: string; userId?: number | null; expiresInSeconds?: number }): AccessTokenRow {
    const prefix = opts.kind === "offline" ? "shpat_" : "shpua_";
    const row: AccessTokenRow = {
      token: prefix + randomBytes(16).toString("hex"),
      kind: opts.kind,
      scope: opts.scope,
      user_id: opts.userId ?? null,
      created_at: this.now(),
      expires_at: opts.expiresInSeconds ? toShopifyDateTime(this.clock() + opts.expiresInSeconds * 1000) : null,
      revoked_at: null,
    };
    this.sql(
      "INSERT INTO access_tokens (token, kind, scope, user_id, created_at, expires_at, revoked_at) VALUES (@token, @kind, @scope, @user_id, @created_at, @expires_at, @revoked_at)",
    ).run(row);
    return row;
  },

  /** The token's row if it is known, not revoked and not expired. */
  findValidAccessToken(this: Store, token: string): AccessTokenRow | undefined {
    const row = this.sql("SELECT * FROM access_tokens WHERE token = ?").get(token) as AccessTokenRow | undefined;
    if (!row || row.revoked_at) return undefined;
    if (row.expires_at && Date.parse(row.expires_at) <= this.clock()) return undefined;
    return row;
  },

  /** The optional scopes the merchant allowed, in the order allowed. */
  grantedOptionalScopes(this: Store): string[] {
    return (this.sql("SELECT scope FROM granted_optional_scopes ORDER BY granted_at, scope").all() as { scope: string }[]).map((row) => row.scope);
  },

  /**
   * The merchant allows `scopes` (optional scopes of the app, checked by the caller) on top of the `required`
   * ones: the installation's every token may use them from now on, and app/scopes_update says so when anything
   * changed. Returns the scopes granted now, required first.
   */
  grantOptionalScopes(this: Store, required: readonly string[], scopes: readonly string[]): string[] {
    return this.transaction(() => {
      const before = [...required, ...this.grantedOptionalScopes()];
      const insert = this.sql("INSERT OR IGNORE INTO granted_optional_scopes (scope, granted_at) VALUES (?, ?)");
      for (const scope of scopes) if (!before.includes(scope)) insert.run(scope, this.now());
      const after = [...required, ...this.grantedOptionalScopes()];
      if (after.length !== before.length) this.emit({ topic: "app/scopes_update", previous: before, current: after });
      return after;
    });
  },

  /** Uninstalling the app revokes every token and fires app/uninstalled. */
  uninstallApp(this: Store): void {
    this.transaction(() => {
      this.sql("UPDATE access_tokens SET revoked_at = ? WHERE revoked_at IS NULL").run(this.now());
      this.sql("DELETE FROM granted_optional_scopes").run();
      this.emit({ topic: "app/uninstalled" });
    });
  },
};
