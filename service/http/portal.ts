import { z } from "zod";
import { DecimalString, defineEndpoints, NonEmptyString, Timestamp } from "../../shipping-api/contract";

/**
 * The provider's portal: what a customer does by hand on the provider's site rather than through the Shipping
 * API. The spec has no void endpoint, but its search result carries `voided`, because labels are voided in the
 * portal; this service offers that action so a voided label can be produced and followed end to end. The
 * routes live outside `/restapi/v1/` and outside the contract's endpoint table, so the typed client stays as
 * the spec says. They are described as the contract's endpoints are (method, path, auth, params, response), so
 * the router, its 404/405 handling and the fuzz suite treat them alike.
 */

const PortalShipmentParams = z.object({ customerId: NonEmptyString, bookNumber: NonEmptyString });

export const VoidShipmentResponse = z.strictObject({
  bookNumber: NonEmptyString,
  voided: z.literal(true),
  voidedAt: Timestamp,
  creditedAmount: DecimalString,
  prepayBalance: DecimalString,
});
export type VoidShipmentResponse = z.infer<typeof VoidShipmentResponse>;

export const portalEndpoints = defineEndpoints([
  {
    /** Void a label the carrier has not scanned yet: the record is marked voided and its charge credited back. */
    name: "voidShipment",
    method: "POST",
    path: "/portal/customers/:customerId/shipments/:bookNumber/void",
    auth: "customer",
    params: PortalShipmentParams,
    query: null,
    body: null,
    response: VoidShipmentResponse,
    successStatus: 200,
  },
]);

export type PortalEndpoints = typeof portalEndpoints;
export type PortalEndpointName = keyof PortalEndpoints;
export const portalEndpointList: readonly PortalEndpoints[PortalEndpointName][] = Object.values(portalEndpoints);
