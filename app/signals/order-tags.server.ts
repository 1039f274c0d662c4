import { z } from "zod";
import type { AdminDocument } from "../shopify/admin-document";
import type { Context } from "../context";
import type { OrderTags } from "../settings/settings";
import type { SignalKind } from "./flow-triggers";
import { AdminApiError, adminQuery } from "../shopify/gateway.server";
import type { AddOrderTagsMutation, AddOrderTagsMutationVariables, RemoveOrderTagsMutation, RemoveOrderTagsMutationVariables } from "../types/admin.generated";

/**
 * Tags Consign writes on a Shopify order (Settings → Order tags; docs/decisions/043), through the one gateway. Both
 * mutations are idempotent in Shopify (adding a tag the order has, or removing one it lacks, changes nothing), which
 * is what lets a write interrupted between its intent and its outcome simply be sent again. They need the optional
 * scope write_orders, which Settings asks for when the merchant turns tags on.
 */

export const ADD_ORDER_TAGS = `#graphql
  mutation AddOrderTags($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) {
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<AddOrderTagsMutation, AddOrderTagsMutationVariables>;

export const REMOVE_ORDER_TAGS = `#graphql
  mutation RemoveOrderTags($id: ID!, $tags: [String!]!) {
    tagsRemove(id: $id, tags: $tags) {
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<RemoveOrderTagsMutation, RemoveOrderTagsMutationVariables>;

/** A mutation's userErrors, as tagsAdd, tagsRemove and flowTriggerReceive answer them. */
export const UserErrors = z.object({ userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })) }).nullable();
const TagsAdded = z.object({ tagsAdd: UserErrors });
const TagsRemoved = z.object({ tagsRemove: UserErrors });

/** Null when Shopify took the mutation, else its userErrors in one sentence after `refusal`. */
export function refusedFor(refusal: string, answer: z.infer<typeof UserErrors>): string | null {
  const errors = answer?.userErrors ?? [];
  return errors.length === 0 ? null : `${refusal}: ${errors.map((error) => error.message).join("; ")}`;
}

/** The tags a kind adds and removes with the shop's names. */
export function tagChange(kind: SignalKind, tags: OrderTags): { add: string[]; remove: string[] } {
  switch (kind) {
    case "LABEL_BOUGHT":
      return { add: [tags.labelBought], remove: [] };
    case "DELIVERED":
      return { add: [tags.delivered], remove: [tags.exception] };
    case "EXCEPTION":
      return { add: [tags.exception], remove: [] };
    case "EXCEPTION_RESOLVED":
      return { add: [], remove: [tags.exception] };
    case "RETURN_LABEL_BOUGHT":
      // A return's label tags nothing: the order's tags speak of its delivery.
      return { add: [], remove: [] };
  }
}

/** What Shopify's refusal for the missing scope becomes, on the signal and in Settings. */
export const MAY_NOT_EDIT_ORDERS =
  "Consign may not edit orders in this store, so it wrote no tag: turn order tags off and on again in Settings and allow it when asked";

/** Whether Shopify refused for a scope the app was not granted (ACCESS_DENIED). */
export function accessDenied(error: unknown): boolean {
  return error instanceof AdminApiError && error.graphQLErrors.some((entry) => entry.extensions?.code === "ACCESS_DENIED");
}

/**
 * Adds then removes tags on the order; null when Shopify took both, else why not (its userErrors, or the missing
 * scope). Other failures (Shopify unreachable) are thrown: the caller tries again later.
 */
export async function writeOrderTags(
  ctx: Pick<Context, "shopify">,
  orderId: string,
  tags: { add: readonly string[]; remove: readonly string[] },
): Promise<string | null> {
  try {
    const admin = await ctx.shopify();
    // Two documents, as Shopify has two mutations; each answers its userErrors the same way.
    if (tags.add.length > 0) {
      const added = await adminQuery(admin, ADD_ORDER_TAGS, TagsAdded, { id: orderId, tags: [...tags.add] });
      const problem = refusedFor("Shopify did not add the tags", added.tagsAdd);
      if (problem) return problem;
    }
    if (tags.remove.length > 0) {
      const removed = await adminQuery(admin, REMOVE_ORDER_TAGS, TagsRemoved, { id: orderId, tags: [...tags.remove] });
      const problem = refusedFor("Shopify did not remove the tags", removed.tagsRemove);
      if (problem) return problem;
    }
    return null;
  } catch (error) {
    if (accessDenied(error)) return MAY_NOT_EDIT_ORDERS;
    throw error;
  }
}
