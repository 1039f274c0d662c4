import { randomBytes } from "node:crypto";
import { toShopifyDateTime } from "../clock.js";
import type { Store } from "./store.js";
import type { AccessTokenRow } from "./types.js";

/** Access tokens the token exchange issues, and uninstalling the app, which revokes them. */
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

  /** Uninstalling the app revokes every token and fires app/uninstalled. */
  uninstallApp(this: Store): void {
    this.transaction(() => {
      this.sql("UPDATE access_tokens SET revoked_at = ? WHERE revoked_at IS NULL").run(this.now());
      this.emit({ topic: "app/uninstalled" });
    });
  },
};
