import { z } from "zod";
import type { AdminDocument } from "../shopify/admin-document";
import type {
  CreateTrackingEventMutation,
  CreateTrackingEventMutationVariables,
  TrackingFulfillmentEventsQuery,
  TrackingFulfillmentEventsQueryVariables,
} from "../types/admin.generated";

/**
 * The Admin GraphQL tracking sync sends, with zod for the parts it relies on. The event write is a mutation
 * (10 points plus its small selection); the read-back after a crash asks for the fulfillment's most recent
 * events only (about 55 points).
 */

/** Events read back when a write's outcome is unknown: the newest first, more than a parcel's changes of status. */
export const EVENTS_READ = 25;

export const CREATE_FULFILLMENT_EVENT = `#graphql
  mutation CreateTrackingEvent($fulfillmentEvent: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) {
      fulfillmentEvent {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<CreateTrackingEventMutation, CreateTrackingEventMutationVariables>;

export const FULFILLMENT_EVENTS = `#graphql
  query TrackingFulfillmentEvents($fulfillmentId: ID!, $first: Int!) {
    fulfillment(id: $fulfillmentId) {
      id
      status
      events(first: $first, sortKey: HAPPENED_AT, reverse: true) {
        nodes {
          id
          status
          happenedAt
        }
      }
    }
  }
` as AdminDocument<TrackingFulfillmentEventsQuery, TrackingFulfillmentEventsQueryVariables>;

export const CreateFulfillmentEventData = z.object({
  fulfillmentEventCreate: z
    .object({
      fulfillmentEvent: z.object({ id: z.string() }).nullable(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })),
    })
    .nullable(),
});

export const FulfillmentEventsData = z.object({
  fulfillment: z
    .object({
      id: z.string(),
      status: z.string(),
      events: z.object({ nodes: z.array(z.object({ id: z.string(), status: z.string(), happenedAt: z.string() })) }),
    })
    .nullable(),
});
