import { GraphQLError } from "graphql";
import { requireGid } from "../gid.js";
import type { Store } from "../store/store.js";
import { flowExtensions, receiveFlowTrigger } from "../flow/flow.js";
import type { FulfillmentOrderRow, WeightUnit } from "../store/types.js";
import {
  fulfillmentCancel,
  fulfillmentCreate,
  fulfillmentEventCreate,
  fulfillmentOrderHold,
  fulfillmentOrderMove,
  fulfillmentOrderOpen,
  fulfillmentOrderReleaseHold,
  fulfillmentTrackingInfoUpdate,
  orderCancel,
  type Outcome,
  type TrackingInput,
} from "../store/fulfillment-ops.js";
import { filterFulfillmentOrders } from "../store/fulfillments.js";
import {
  returnApproveRequest,
  returnCancel,
  returnClose,
  returnCreate,
  returnDeclineRequest,
  returnRequest,
  reverseDeliveryCreateWithShipping,
  reverseDeliveryShippingUpdate,
  type ReturnLineInput,
  type ReverseDeliveryShippingInput,
} from "../store/return-ops.js";
import { paginate, type ConnectionArgs } from "./connection.js";
import { searchOrders } from "./order-search.js";
import {
  bulkOperationView,
  fulfillmentEventView,
  fulfillmentOrderView,
  fulfillmentView,
  holdView,
  inventoryItemView,
  locationView,
  nodeView,
  orderView,
  productView,
  requireScope,
  returnView,
  reverseDeliveryView,
  reverseFulfillmentOrderView,
  shopView,
  variantView,
  type ResolverContext,
  type View,
} from "./views.js";

type Args = Record<string, unknown>;

/** The unit is one of WeightUnit's values: the schema's enum coerced it. */
type VariantWeightInput = { id?: unknown; inventoryItem?: { measurement?: { weight?: { unit: WeightUnit; value: number } | null } | null } | null };

/** The parts of ProductVariantsBulkInput the local admin sets: the variant's weight. Anything else is refused, not ignored. */
function variantWeightInputs(value: unknown): VariantWeightInput[] {
  const variants = value as Array<Record<string, unknown>>;
  checkInputSize(variants);
  const unsupported = (path: string) =>
    new GraphQLError(`productVariantsBulkUpdate: the local admin sets only a variant's inventoryItem.measurement.weight, not ${path}`, {
      extensions: { code: "NOT_SUPPORTED_BY_LOCAL_ADMIN" },
    });
  const set = (object: Record<string, unknown>) => Object.keys(object).filter((key) => object[key] != null);
  for (const variant of variants) {
    for (const key of set(variant)) if (key !== "id" && key !== "inventoryItem") throw unsupported(key);
    const item = (variant.inventoryItem ?? {}) as Record<string, unknown>;
    for (const key of set(item)) if (key !== "measurement") throw unsupported(`inventoryItem.${key}`);
    const measurement = (item.measurement ?? {}) as Record<string, unknown>;
    for (const key of set(measurement)) if (key !== "weight") throw unsupported(`inventoryItem.measurement.${key}`);
  }
  return variants as VariantWeightInput[];
}

/** tagsAdd / tagsRemove on an order; another resource type is not supported here. */
function tagMutation(store: Store, ctx: ResolverContext, field: string, args: Args, how: "add" | "remove") {
  const id = str(args.id);
  if (!id.startsWith("gid://shopify/Order/")) {
    throw new GraphQLError(`${field}: the local admin tags orders only, not ${id}`, { extensions: { code: "NOT_SUPPORTED_BY_LOCAL_ADMIN" } });
  }
  requireScope(ctx, field, "write_orders");
  const tags = Array.isArray(args.tags) ? (args.tags as string[]) : str(args.tags).split(",");
  checkInputSize(tags);
  const orderId = optionalGid(id, "Order");
  const order = orderId === null ? undefined : store.getOrder(orderId);
  if (!order) return { node: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] };
  if (tags.some((tag) => tag.trim().length > 255)) return { node: null, userErrors: [{ field: ["tags"], message: "Tags must be 255 characters or fewer" }] };
  store.changeOrderTags(order.id, how === "add" ? { add: tags } : { remove: tags });
  return { node: { __typename: "Order", ...orderView(store, store.getOrder(order.id)!) }, userErrors: [] };
}

export const MAX_INPUT_ARRAY = 250;

function checkInputSize(values: unknown[]): void {
  if (values.length > MAX_INPUT_ARRAY) {
    throw new GraphQLError(`The input array size of ${values.length} is greater than the maximum allowed of ${MAX_INPUT_ARRAY}.`, {
      extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" },
    });
  }
}

const str = (v: unknown): string => String(v);

/** A root field that needs read_returns (Shopify's ACCESS_DENIED without it). */
const readingReturns =
  (field: string, resolve: (args: Args) => View | null) =>
  (args: Args, ctx: ResolverContext): View | null => {
    requireScope(ctx, field, "read_returns");
    return resolve(args);
  };

/** Query root: the fields the app reads, each backed by the store. */
export function queryRoot(store: Store): View {
  const byId =
    <R>(type: string, find: (id: number) => R | undefined, view: (row: R) => View) =>
    (args: Args) => {
      const id = requireGid(str(args.id), type);
      const row = id === null ? undefined : find(id);
      return row ? view(row) : null;
    };
  return {
    shop: () => shopView(store),
    locations: (args: Args, ctx: ResolverContext) => {
      const locations = store.listLocations(args.includeInactive === true);
      if (args.sortKey === "ID") locations.sort((a, b) => a.id - b.id);
      return paginate(
        locations,
        args as ConnectionArgs,
        ctx,
        (l) => locationView(store, l),
        (l) => (args.sortKey === "ID" ? l.id : l.name),
      );
    },
    location: (args: Args) => {
      if (args.id == null) {
        const loc = store.getLocation(store.defaultLocationId());
        return loc ? locationView(store, loc) : null;
      }
      return byId(
        "Location",
        (id) => store.getLocation(id),
        (l) => locationView(store, l),
      )(args);
    },
    orders: (args: Args, ctx: ResolverContext) => {
      const query = typeof args.query === "string" ? args.query : null;
      const { rows, warnings } = searchOrders(store.db, query, str(args.sortKey ?? "PROCESSED_AT"));
      if (query && warnings.length > 0) ctx.searchExtensions.push({ path: ["orders"], query, warnings });
      return paginate(
        rows,
        args as ConnectionArgs,
        ctx,
        (row) => {
          const order = store.getOrder(row.id);
          return order ? orderView(store, order) : null;
        },
        (row) => row.sort_value,
      );
    },
    order: byId(
      "Order",
      (id) => store.getOrder(id),
      (o) => orderView(store, o),
    ),
    // All fulfillment orders of the shop, oldest first; closed and cancelled ones only with includeClosed.
    fulfillmentOrders: (args: Args, ctx: ResolverContext) => {
      const includeClosed = args.includeClosed === true;
      let rows = (store.sql("SELECT * FROM fulfillment_orders ORDER BY id").all() as FulfillmentOrderRow[]).filter(
        (fo) => includeClosed || (fo.status !== "CLOSED" && fo.status !== "CANCELLED"),
      );
      if (typeof args.query === "string" && args.query.trim()) rows = filterFulfillmentOrders(rows, args.query);
      return paginate(rows, args as ConnectionArgs, ctx, (fo) => fulfillmentOrderView(store, fo));
    },

    fulfillment: byId(
      "Fulfillment",
      (id) => store.getFulfillment(id),
      (f) => fulfillmentView(store, f),
    ),
    fulfillmentOrder: byId(
      "FulfillmentOrder",
      (id) => store.getFulfillmentOrder(id),
      (fo) => fulfillmentOrderView(store, fo),
    ),
    product: byId(
      "Product",
      (id) => store.getProduct(id),
      (p) => productView(store, p),
    ),
    productVariant: byId(
      "ProductVariant",
      (id) => store.getVariant(id),
      (v) => variantView(store, v),
    ),
    inventoryItem: byId(
      "InventoryItem",
      (id) => store.getInventoryItem(id),
      (i) => inventoryItemView(store, i),
    ),
    products: (args: Args, ctx: ResolverContext) => {
      // Shopify's product search, as far as the app uses it: clauses joined by OR, each free words (the title or
      // a variant's SKU contains them, any case) or `title:` / `sku:` with a value, `*` as a wildcard at its ends.
      const clauses = (typeof args.query === "string" ? args.query : "")
        .split(/\s+OR\s+/i)
        .map((clause) => clause.trim().toLowerCase())
        .filter(Boolean)
        .map((clause) => {
          const named = /^(title|sku):(.*)$/.exec(clause);
          return { field: named?.[1] ?? null, text: (named?.[2] ?? clause).replace(/^\*|\*$/g, "") };
        });
      const matches = (p: { id: number; title: string }) =>
        clauses.length === 0 ||
        clauses.some(
          ({ field, text }) =>
            (field !== "sku" && p.title.toLowerCase().includes(text)) ||
            (field !== "title" && store.listVariants(p.id).some((v) => (v.sku ?? "").toLowerCase().includes(text))),
        );
      const products = store
        .listProductIds()
        .map((id) => store.getProduct(id))
        .filter((p) => p !== undefined)
        .filter(matches);
      if (args.sortKey === "TITLE") products.sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
      return paginate(
        products,
        args as ConnectionArgs,
        ctx,
        (p) => productView(store, p),
        (p) => (args.sortKey === "TITLE" ? p.title : p.id),
      );
    },
    node: (args: Args, ctx: ResolverContext) => nodeView(store, str(args.id), ctx),
    nodes: (args: Args, ctx: ResolverContext) => {
      const ids = (args.ids as unknown[]).map(str);
      checkInputSize(ids);
      return ids.map((id) => nodeView(store, id, ctx));
    },
    // Returns need read_returns, as Shopify's do.
    return: readingReturns(
      "return",
      byId(
        "Return",
        (id) => store.getReturn(id),
        (row) => returnView(store, row),
      ),
    ),
    reverseFulfillmentOrder: readingReturns(
      "reverseFulfillmentOrder",
      byId(
        "ReverseFulfillmentOrder",
        (id) => store.getReverseFulfillmentOrder(id),
        (row) => reverseFulfillmentOrderView(store, row),
      ),
    ),
    reverseDelivery: readingReturns(
      "reverseDelivery",
      byId(
        "ReverseDelivery",
        (id) => store.getReverseDelivery(id),
        (row) => reverseDeliveryView(store, row),
      ),
    ),
    bulkOperation: (args: Args, ctx: ResolverContext) =>
      byId(
        "BulkOperation",
        (id) => store.getBulkOperation(id),
        (op) => bulkOperationView(op, ctx.origin),
      )(args),
    currentBulkOperation: (args: Args, ctx: ResolverContext) => {
      const op = store.currentBulkOperation(str(args.type ?? "QUERY"));
      return op ? bulkOperationView(op, ctx.origin) : null;
    },
  };
}

const optionalGid = (value: unknown, type: string): number | null => requireGid(str(value), type);

function itemsInput(value: unknown): { id: number | null; quantity: number }[] | null {
  if (!Array.isArray(value)) return null;
  checkInputSize(value);
  return value.map((item: { id: unknown; quantity: unknown }) => ({
    id: optionalGid(item.id, "FulfillmentOrderLineItem"),
    quantity: Number(item.quantity),
  }));
}

function payload<T>(outcome: Outcome<T>, build: (value: T) => View, errorsKey = "userErrors"): View {
  if (!outcome.ok) return { ...build(null as never), [errorsKey]: outcome.userErrors };
  return { ...build(outcome.value), [errorsKey]: [] };
}

type ReturnLineArgs = {
  fulfillmentLineItemId: string;
  quantity: number;
  returnReason?: string | null;
  returnReasonNote?: string | null;
  customerNote?: string | null;
  returnReasonDefinitionId?: string | null;
  restockingFee?: unknown;
};

/** A return's line items (ReturnRequestLineItemInput / ReturnLineItemInput); restocking fees and reason definitions by id are not supported. */
function returnLinesInput(value: unknown): ReturnLineInput[] {
  const lines = value as ReturnLineArgs[];
  checkInputSize(lines);
  for (const line of lines) {
    if (line.restockingFee != null || line.returnReasonDefinitionId != null) {
      throw new GraphQLError("The local admin supports neither restocking fees nor return reason definitions by id: give returnReason", {
        extensions: { code: "NOT_SUPPORTED_BY_LOCAL_ADMIN" },
      });
    }
  }
  return lines.map((line) => ({
    fulfillmentLineItemId: optionalGid(line.fulfillmentLineItemId, "FulfillmentLineItem"),
    quantity: Number(line.quantity),
    returnReason: line.returnReason ?? null,
    returnReasonNote: line.returnReasonNote ?? null,
    customerNote: line.customerNote ?? null,
  }));
}

function refuseShippingFee(fee: unknown): void {
  if (fee != null) throw new GraphQLError("The local admin does not support return shipping fees", { extensions: { code: "NOT_SUPPORTED_BY_LOCAL_ADMIN" } });
}

/** A reverse delivery's tracking and label; notifyCustomer is true unless given false, as Shopify's default. */
function shippingInput(args: Args): ReverseDeliveryShippingInput {
  const tracking = (args.trackingInput ?? null) as { number?: string | null; url?: string | null } | null;
  const label = (args.labelInput ?? null) as { fileUrl: string } | null;
  return { tracking, label, notifyCustomer: args.notifyCustomer !== false };
}

/** Mutation root: the writes the app performs, with Shopify's payload shapes and userErrors. */
export function mutationRoot(store: Store): View {
  const fulfillmentOrNull = (id: number | undefined) => {
    const f = id === undefined ? undefined : store.getFulfillment(id);
    return f ? fulfillmentView(store, f) : null;
  };
  const foOrNull = (id: number | null | undefined) => {
    const fo = id == null ? undefined : store.getFulfillmentOrder(id);
    return fo ? fulfillmentOrderView(store, fo) : null;
  };
  const returnOrNull = (id: number | undefined) => {
    const row = id === undefined ? undefined : store.getReturn(id);
    return row ? returnView(store, row) : null;
  };
  const reverseDeliveryOrNull = (id: number | undefined) => {
    const row = id === undefined ? undefined : store.getReverseDelivery(id);
    return row ? reverseDeliveryView(store, row) : null;
  };
  // Every returns mutation needs write_returns, as Shopify's do.
  const returns = (field: string, run: (args: Args) => View) => (args: Args, ctx: ResolverContext) => {
    requireScope(ctx, field, "write_returns");
    return run(args);
  };
  return {
    returnRequest: returns("returnRequest", (args) => {
      const input = args.input as { orderId: string; returnLineItems: unknown; returnShippingFee?: unknown };
      refuseShippingFee(input.returnShippingFee);
      const outcome = returnRequest(store, { orderId: optionalGid(input.orderId, "Order"), lines: returnLinesInput(input.returnLineItems) });
      return payload(outcome, (v) => ({ return: returnOrNull(v?.returnId) }));
    }),
    returnCreate: returns("returnCreate", (args) => {
      const input = args.returnInput as { orderId: string; returnLineItems: unknown; exchangeLineItems?: unknown[] | null; returnShippingFee?: unknown };
      refuseShippingFee(input.returnShippingFee);
      if (Array.isArray(input.exchangeLineItems) && input.exchangeLineItems.length > 0) {
        throw new GraphQLError("returnCreate: the local admin does not support exchange line items", { extensions: { code: "NOT_SUPPORTED_BY_LOCAL_ADMIN" } });
      }
      const outcome = returnCreate(store, { orderId: optionalGid(input.orderId, "Order"), lines: returnLinesInput(input.returnLineItems) });
      return payload(outcome, (v) => ({ return: returnOrNull(v?.returnId) }));
    }),
    returnApproveRequest: returns("returnApproveRequest", (args) => {
      const input = args.input as { id: string };
      return payload(returnApproveRequest(store, optionalGid(input.id, "Return")), (v) => ({ return: returnOrNull(v?.returnId) }));
    }),
    returnDeclineRequest: returns("returnDeclineRequest", (args) => {
      const input = args.input as { id: string; declineReason: string; declineNote?: string | null };
      const outcome = returnDeclineRequest(store, optionalGid(input.id, "Return"), input.declineReason, input.declineNote ?? null);
      return payload(outcome, (v) => ({ return: returnOrNull(v?.returnId) }));
    }),
    returnCancel: returns("returnCancel", (args) =>
      payload(returnCancel(store, optionalGid(args.id, "Return")), (v) => ({ return: returnOrNull(v?.returnId) })),
    ),
    returnClose: returns("returnClose", (args) => payload(returnClose(store, optionalGid(args.id, "Return")), (v) => ({ return: returnOrNull(v?.returnId) }))),
    reverseDeliveryCreateWithShipping: returns("reverseDeliveryCreateWithShipping", (args) => {
      const items = args.reverseDeliveryLineItems as { reverseFulfillmentOrderLineItemId: string; quantity: number }[];
      checkInputSize(items);
      const outcome = reverseDeliveryCreateWithShipping(
        store,
        optionalGid(args.reverseFulfillmentOrderId, "ReverseFulfillmentOrder"),
        items.map((item) => ({ id: optionalGid(item.reverseFulfillmentOrderLineItemId, "ReverseFulfillmentOrderLineItem"), quantity: Number(item.quantity) })),
        shippingInput(args),
      );
      return payload(outcome, (v) => ({ reverseDelivery: reverseDeliveryOrNull(v?.reverseDeliveryId) }));
    }),
    reverseDeliveryShippingUpdate: returns("reverseDeliveryShippingUpdate", (args) => {
      const outcome = reverseDeliveryShippingUpdate(store, optionalGid(args.reverseDeliveryId, "ReverseDelivery"), shippingInput(args));
      return payload(outcome, (v) => ({ reverseDelivery: reverseDeliveryOrNull(v?.reverseDeliveryId) }));
    }),
    fulfillmentCreate: (args: Args) => {
      const input = args.fulfillment as {
        lineItemsByFulfillmentOrder: { fulfillmentOrderId: string; fulfillmentOrderLineItems?: unknown }[];
        notifyCustomer?: boolean | null;
        trackingInfo?: TrackingInput | null;
      };
      checkInputSize(input.lineItemsByFulfillmentOrder);
      const outcome = fulfillmentCreate(store, {
        lineItemsByFulfillmentOrder: input.lineItemsByFulfillmentOrder.map((group) => ({
          fulfillmentOrderId: optionalGid(group.fulfillmentOrderId, "FulfillmentOrder"),
          fulfillmentOrderGid: group.fulfillmentOrderId,
          fulfillmentOrderLineItems: itemsInput(group.fulfillmentOrderLineItems),
        })),
        notifyCustomer: input.notifyCustomer === true,
        trackingInfo: input.trackingInfo ?? null,
        message: typeof args.message === "string" ? args.message : null,
      });
      return payload(outcome, (v) => ({ fulfillment: fulfillmentOrNull(v?.fulfillmentId) }));
    },
    fulfillmentTrackingInfoUpdate: (args: Args) => {
      const outcome = fulfillmentTrackingInfoUpdate(
        store,
        optionalGid(args.fulfillmentId, "Fulfillment"),
        args.trackingInfoInput as TrackingInput,
        typeof args.notifyCustomer === "boolean" ? args.notifyCustomer : null,
      );
      return payload(outcome, (v) => ({ fulfillment: fulfillmentOrNull(v?.fulfillmentId) }));
    },
    fulfillmentCancel: (args: Args) => {
      const outcome = fulfillmentCancel(store, optionalGid(args.id, "Fulfillment"));
      return payload(outcome, (v) => ({ fulfillment: fulfillmentOrNull(v?.fulfillmentId) }));
    },
    fulfillmentEventCreate: (args: Args) => {
      const input = args.fulfillmentEvent as Record<string, unknown> & { fulfillmentId: string; status: string };
      const outcome = fulfillmentEventCreate(store, { ...input, fulfillmentId: optionalGid(input.fulfillmentId, "Fulfillment") });
      return payload(outcome, (v) => {
        const event = v ? store.getFulfillmentEvent(v.eventId) : undefined;
        return { fulfillmentEvent: event ? fulfillmentEventView(event) : null };
      });
    },
    fulfillmentOrderHold: (args: Args) => {
      const hold = args.fulfillmentHold as { reason: string; reasonNotes?: string | null; handle?: string | null; fulfillmentOrderLineItems?: unknown };
      const outcome = fulfillmentOrderHold(store, optionalGid(args.id, "FulfillmentOrder"), {
        reason: hold.reason,
        reasonNotes: hold.reasonNotes ?? null,
        handle: hold.handle ?? "",
        fulfillmentOrderLineItems: itemsInput(hold.fulfillmentOrderLineItems),
      });
      return payload(outcome, (v) => {
        const row = v ? store.getHold(v.holdId) : undefined;
        return { fulfillmentHold: row ? holdView(row) : null, fulfillmentOrder: foOrNull(v?.foId), remainingFulfillmentOrder: null };
      });
    },
    fulfillmentOrderReleaseHold: (args: Args) => {
      const holdIds = Array.isArray(args.holdIds) ? args.holdIds.map((id) => optionalGid(id, "FulfillmentHold")) : null;
      const outcome = fulfillmentOrderReleaseHold(store, optionalGid(args.id, "FulfillmentOrder"), holdIds);
      return payload(outcome, (v) => ({ fulfillmentOrder: foOrNull(v?.foId) }));
    },
    fulfillmentOrderMove: (args: Args) => {
      const outcome = fulfillmentOrderMove(
        store,
        optionalGid(args.id, "FulfillmentOrder"),
        optionalGid(args.newLocationId, "Location"),
        itemsInput(args.fulfillmentOrderLineItems),
      );
      return payload(outcome, (v) => ({
        originalFulfillmentOrder: foOrNull(v?.originalId),
        movedFulfillmentOrder: foOrNull(v?.movedId),
        remainingFulfillmentOrder: foOrNull(v?.remainingId),
      }));
    },
    fulfillmentOrderOpen: (args: Args) => {
      const outcome = fulfillmentOrderOpen(store, optionalGid(args.id, "FulfillmentOrder"));
      return payload(outcome, (v) => ({ fulfillmentOrder: foOrNull(v?.foId) }));
    },
    orderCancel: (args: Args) => {
      const orderId = optionalGid(args.orderId, "Order");
      const outcome = orderCancel(store, orderId, str(args.reason), typeof args.staffNote === "string" ? args.staffNote : null);
      const errors = outcome.ok ? [] : outcome.userErrors;
      const order = outcome.ok ? store.getOrder(outcome.value.orderId) : undefined;
      const job = outcome.ok ? { id: `gid://shopify/Job/order-cancel-${outcome.value.orderId}`, done: true } : null;
      return {
        job,
        jobResult: job ? { id: job.id, done: true, status: "SUCCEEDED", errors: [], order: order ? orderView(store, order) : null } : null,
        orderCancelUserErrors: errors,
        userErrors: errors.map(({ field, message }) => ({ field, message })),
      };
    },
    // Needs write_orders for an order, as Shopify's does (the local admin tags orders only). Idempotent.
    tagsAdd: (args: Args, ctx: ResolverContext) => tagMutation(store, ctx, "tagsAdd", args, "add"),
    tagsRemove: (args: Args, ctx: ResolverContext) => tagMutation(store, ctx, "tagsRemove", args, "remove"),
    // Shopify Flow: the payload checked against the trigger's declared fields (devstore/flow/flow.ts).
    flowTriggerReceive: (args: Args) => {
      if (args.body != null) return { userErrors: [{ field: ["body"], message: "body is deprecated; send handle and payload" }] };
      return { userErrors: receiveFlowTrigger(store, flowExtensions(), args.handle, args.payload) };
    },
    // Needs write_products, as Shopify's does. All or nothing (allowPartialUpdates false, the default); media is not supported.
    productVariantsBulkUpdate: (args: Args, ctx: ResolverContext) => {
      requireScope(ctx, "productVariantsBulkUpdate", "write_products");
      if (args.allowPartialUpdates === true || (Array.isArray(args.media) && args.media.length > 0)) {
        throw new GraphQLError("productVariantsBulkUpdate: the local admin supports neither allowPartialUpdates nor media", {
          extensions: { code: "NOT_SUPPORTED_BY_LOCAL_ADMIN" },
        });
      }
      const inputs = variantWeightInputs(args.variants);
      const refused = (field: string[], message: string, code: string) => ({ product: null, productVariants: null, userErrors: [{ field, message, code }] });
      const productId = optionalGid(args.productId, "Product");
      const product = productId === null ? undefined : store.getProduct(productId);
      if (!product) return refused(["productId"], "Product does not exist", "PRODUCT_DOES_NOT_EXIST");
      const changes: { variantId: number; weight: { unit: WeightUnit; value: number } | null }[] = [];
      for (const [index, input] of inputs.entries()) {
        if (input.id == null) return refused(["variants", String(index), "id"], "Product variant is missing ID attribute", "PRODUCT_VARIANT_ID_MISSING");
        const variantId = optionalGid(input.id, "ProductVariant");
        const variant = variantId === null ? undefined : store.getVariant(variantId);
        if (!variant || variant.product_id !== product.id) {
          return refused(["variants", String(index), "id"], "Product variant does not exist", "PRODUCT_VARIANT_DOES_NOT_EXIST");
        }
        const weight = input.inventoryItem?.measurement?.weight ?? null;
        if (weight && !(weight.value >= 0)) {
          return refused(
            ["variants", String(index), "inventoryItem", "measurement", "weight", "value"],
            "Weight must be greater than or equal to 0",
            "INVALID_INPUT",
          );
        }
        changes.push({ variantId: variant.id, weight: weight && { unit: weight.unit, value: weight.value } });
      }
      for (const change of changes) if (change.weight) store.setVariantWeight(change.variantId, change.weight);
      const updated = changes.map((change) => store.getVariant(change.variantId)).filter((variant) => variant !== undefined);
      return {
        product: productView(store, store.getProduct(product.id)!),
        productVariants: updated.map((variant) => variantView(store, variant)),
        userErrors: [],
      };
    },
    bulkOperationRunQuery: (args: Args, ctx: ResolverContext) => {
      const started = ctx.startBulkOperation(str(args.query));
      if ("userError" in started) {
        return { bulkOperation: null, userErrors: [{ field: ["query"], message: started.userError, code: started.code }] };
      }
      const op = store.getBulkOperation(started.id);
      return { bulkOperation: op ? bulkOperationView(op, ctx.origin) : null, userErrors: [] };
    },
  };
}
