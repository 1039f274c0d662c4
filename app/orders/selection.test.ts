import { describe, expect, it } from "vitest";
import { parseOrderSelection } from "./selection";

describe("parseOrderSelection", () => {
  it.each([
    ["ids[] from an admin link", "ids[]=gid://shopify/Order/1&ids[]=gid://shopify/Order/2", ["gid://shopify/Order/1", "gid://shopify/Order/2"]],
    ["a single id", "id=gid://shopify/Order/7", ["gid://shopify/Order/7"]],
    ["numeric ids", "ids[]=1001&ids[]=1002", ["gid://shopify/Order/1001", "gid://shopify/Order/1002"]],
    ["a comma list, duplicates dropped", "ids=1,2,1", ["gid://shopify/Order/1", "gid://shopify/Order/2"]],
    ["nothing", "shop=x.myshopify.com", []],
  ])("GIVEN %s THEN the order ids in order", (_case, query, expected) => {
    expect(parseOrderSelection(new URLSearchParams(query))).toEqual({ ids: expected });
  });

  it("GIVEN a product id THEN an error naming the field and the value", () => {
    expect(parseOrderSelection(new URLSearchParams("ids[]=gid://shopify/Product/1"))).toEqual({
      error: "The order id “gid://shopify/Product/1” must be an order id like gid://shopify/Order/1001",
    });
  });
});
