import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Store } from "../store/store.js";
import { verifySessionToken, type SessionTokenKeys } from "./session-token.js";

export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
export const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
export const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";

/** Online access tokens live a day, as Shopify's do. */
export const ONLINE_TOKEN_TTL_SECONDS = 86_399;

const ExchangeBody = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  grant_type: z.string(),
  subject_token: z.string().min(1),
  subject_token_type: z.string(),
  requested_token_type: z.string().default(OFFLINE_TOKEN_TYPE),
});

export interface TokenExchangeOptions extends SessionTokenKeys {
  store: Store;
  shopDomain: string;
  /** The installation's scopes now (required and granted optional), comma-separated. */
  scope: () => string;
}

/** POST /admin/oauth/access_token (JSON or form): Shopify's token exchange of a session token for an access token. */
export function registerTokenExchange(app: FastifyInstance, options: TokenExchangeOptions): void {
  app.post("/admin/oauth/access_token", async (request, reply) => {
    const parsed = ExchangeBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      return reply
        .code(400)
        .send({ error: "invalid_request", error_description: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") });
    }
    const body = parsed.data;
    if (body.client_id !== options.apiKey || body.client_secret !== options.apiSecret) {
      return reply.code(401).send({ error: "invalid_client", error_description: "Client credentials are invalid" });
    }
    if (body.grant_type !== TOKEN_EXCHANGE_GRANT) {
      return reply.code(400).send({ error: "unsupported_grant_type", error_description: `Grant type ${body.grant_type} is not supported` });
    }
    if (body.subject_token_type !== ID_TOKEN_TYPE) {
      return reply.code(400).send({ error: "invalid_request", error_description: "subject_token_type must be an id_token" });
    }
    if (body.requested_token_type !== OFFLINE_TOKEN_TYPE && body.requested_token_type !== ONLINE_TOKEN_TYPE) {
      return reply.code(400).send({ error: "invalid_request", error_description: `Unknown requested_token_type ${body.requested_token_type}` });
    }
    let claims;
    try {
      claims = await verifySessionToken(options, body.subject_token, options.shopDomain);
    } catch (error) {
      return reply.code(400).send({ error: "invalid_subject_token", error_description: error instanceof Error ? error.message : String(error) });
    }
    if (body.requested_token_type === OFFLINE_TOKEN_TYPE) {
      const token = options.store.issueAccessToken({ kind: "offline", scope: options.scope() });
      return reply.send({ access_token: token.token, scope: token.scope });
    }
    const user = options.store.getStaffUser(Number(claims.sub));
    if (!user) return reply.code(400).send({ error: "invalid_subject_token", error_description: `Unknown staff user ${claims.sub}` });
    const token = options.store.issueAccessToken({ kind: "online", scope: options.scope(), userId: user.id, expiresInSeconds: ONLINE_TOKEN_TTL_SECONDS });
    return reply.send({
      access_token: token.token,
      scope: token.scope,
      expires_in: ONLINE_TOKEN_TTL_SECONDS,
      associated_user_scope: token.scope,
      associated_user: {
        id: user.id,
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        email_verified: true,
        account_owner: user.account_owner === 1,
        locale: user.locale,
        collaborator: false,
      },
    });
  });
}
