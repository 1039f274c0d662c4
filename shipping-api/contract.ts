/**
 * The Shipping API contract: one zod schema per request body, response body and resource of
 * the Shipping API's wire spec, types inferred under the same names, and the
 * endpoint table that both the typed client and the service router are built from.
 *
 * Parsed (output) types are canonical: decimals are decimal strings, alternative spellings of
 * a field are normalised to one name. Use `z.input<typeof X>` for what a sender may write.
 */
export * from "./contract/primitives";
export * from "./contract/enums";
export * from "./contract/errors";
export * from "./contract/issues";
export * from "./contract/address";
export * from "./contract/shipment";
export * from "./contract/quote";
export * from "./contract/batch";
export * from "./contract/records";
export * from "./contract/endpoints";
