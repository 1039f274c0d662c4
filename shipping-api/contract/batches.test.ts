import { describe, expect, it } from "vitest";
import { buildBatch, buildBatchQuoteEntry } from "../../test/factories/shipping-api";
import { type RejectionRow, itAcceptsEach, itRejectsEach } from "../../test/support/contract-rows";
import {
  AddToBatchRequest,
  BatchBookRequest,
  BatchBookResponse,
  BatchDetail,
  BatchLabelsResponse,
  CreateBatchRequest,
  formatIssues,
  ListBatchesQuery,
  ListBatchesResponse,
  OkResponse,
} from "../contract";

// Batches: Create Batch, List Batches, Get Batch, Add to Batch, Batch Book and View Batch Labels, requests and responses.

const batchRules: RejectionRow[] = [
  ["an empty batch name", CreateBatchRequest, { name: "" }, "name"],
  ["a 256-character batch name", CreateBatchRequest, { name: "x".repeat(256) }, "name"],
  ["501 quote ids at creation", CreateBatchRequest, { name: "b", quoteIds: Array.from({ length: 501 }, (_, i) => i + 1) }, "quoteIds"],
  ["a non-integer quote id", CreateBatchRequest, { name: "b", quoteIds: [1, 2.5] }, "quoteIds[1]"],
  ["no quote ids to add", AddToBatchRequest, { quoteIds: [] }, "quoteIds"],
  ["501 quote ids to add", AddToBatchRequest, { quoteIds: Array.from({ length: 501 }, (_, i) => i + 1) }, "quoteIds"],
  ["a quote id of zero", AddToBatchRequest, { quoteIds: [0] }, "quoteIds[0]"],
  ["a batch id as a string", BatchBookRequest, { batchId: "17" }, "batchId"],
  ["page 0", ListBatchesQuery, { page: "0" }, "page"],
  ["a non-numeric page", ListBatchesQuery, { page: "two" }, "page"],
  ["limit 0", ListBatchesQuery, { limit: "0" }, "limit"],
  ["limit 101", ListBatchesQuery, { limit: "101" }, "limit"],
  ["a fractional limit", ListBatchesQuery, { limit: "2.5" }, "limit"],
  ["an unknown batch status", ListBatchesResponse, { batches: [buildBatch({ status: "done" as "open" })], total: 1, page: 1, limit: 25 }, "batches[0].status"],
  [
    "an ISO 8601 timestamp",
    ListBatchesResponse,
    { batches: [buildBatch({ createdAt: "2026-11-21T09:12:00Z" })], total: 1, page: 1, limit: 25 },
    "batches[0].createdAt",
  ],
  ["hour 24 in a timestamp", BatchDetail, { ...buildBatch({ processedAt: "2026-11-21 24:00:00" }), quotes: [] }, "processedAt"],
  ["an unknown quote status", BatchDetail, { ...buildBatch(), quotes: [buildBatchQuoteEntry({ status: "pending" as "active" })] }, "quotes[0].status"],
  ["a page size over 100 in a list", ListBatchesResponse, { batches: [], total: 0, page: 1, limit: 500 }, "limit"],
  [
    "a success book result without bookNumber",
    BatchBookResponse,
    { results: [{ quoteId: 1, status: "success", trackingNumber: "1", totalShippingCost: "1.00", zone: "1" }], labelsPdf: "" },
    "results[0].bookNumber",
  ],
  ["an unknown book result status", BatchBookResponse, { results: [{ quoteId: 1, status: "partial" }], labelsPdf: "" }, "results[0].status"],
  ["labels that are not base64", BatchBookResponse, { results: [], labelsPdf: "%PDF-1.7" }, "labelsPdf"],
  ["empty batch labels", BatchLabelsResponse, { labelsPdf: "" }, "labelsPdf"],
];

describe("Shipping API contract, batches: documented shapes", () => {
  itAcceptsEach([
    ["a create batch request", CreateBatchRequest, { name: "Monday pickups", quoteIds: [9001, 9002] }],
    ["a create batch request without quotes", CreateBatchRequest, { name: "x".repeat(255) }],
    ["an add to batch request", AddToBatchRequest, { quoteIds: [9003] }],
    ["a batch book request", BatchBookRequest, { batchId: 17 }],
    ["a batch", BatchDetail.omit({ quotes: true }), buildBatch()],
    [
      "a batch with its quotes",
      BatchDetail,
      {
        ...buildBatch({ status: "completed", bookedCount: 1, errorCount: 1, processedAt: "2026-11-21 10:00:00" }),
        quotes: [
          buildBatchQuoteEntry({ status: "booked", bookNumber: "BK-1", trackingNumber: "1Z1" }),
          buildBatchQuoteEntry({ quoteId: 9002, bookingError: "Address not serviceable", totalAmount: 9.5 }),
        ],
      },
    ],
    ["a list of batches", ListBatchesResponse, { batches: [buildBatch()], total: 1, page: 1, limit: 25 }],
    ["an ok response", OkResponse, { ok: true }],
    [
      "a batch book response",
      BatchBookResponse,
      {
        results: [
          {
            quoteId: 9001,
            status: "success",
            bookNumber: "BK-1",
            trackingNumber: "1Z1",
            lastMileTrackingNumber: "",
            totalShippingCost: "14.75",
            zone: "8",
          },
          { quoteId: 9002, status: "error", error: "Quote expired", errorCategory: "QUOTE_EXPIRED" },
        ],
        labelsPdf: "JVBERi0xLjcK",
        prepayBalance: "185.25",
      },
    ],
    [
      "a batch book response where nothing was booked",
      BatchBookResponse,
      { results: [{ quoteId: 9002, status: "error", error: "Quote expired", errorCategory: "QUOTE_EXPIRED" }], labelsPdf: "" },
    ],
    ["batch labels", BatchLabelsResponse, { labelsPdf: "JVBERi0xLjcK" }],
  ]);
});

describe("Shipping API contract, batches: rules", () => {
  itRejectsEach(batchRules);

  it("GIVEN several violations WHEN formatted THEN every issue is listed, separated by semicolons", () => {
    const result = CreateBatchRequest.safeParse({ name: "", quoteIds: [0] });
    expect(result.success ? "" : formatIssues(result.error)).toBe("name: must not be empty; quoteIds[0]: must be a positive integer");
  });
});

describe("Shipping API contract, batches: canonical output", () => {
  it("GIVEN an empty list query WHEN parsed THEN page 1 and limit 25 are the defaults", () => {
    expect(ListBatchesQuery.parse({})).toEqual({ page: 1, limit: 25 });
    expect(ListBatchesQuery.parse({ page: "3", limit: "100" })).toEqual({ page: 3, limit: 100 });
  });
});
