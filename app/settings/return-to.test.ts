import { describe, expect, it } from "vitest";
import { onboardingUrl, returnToOf, safeReturnTo, settingsReturnTo, settingsUrlReturningTo } from "./return-to";

describe("returnTo", () => {
  it("GIVEN an embedded document request THEN returnTo keeps the page's own parameters and onboarding carries the embedding ones", () => {
    const url = "https://app.example/app/quotes/new?ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1&embedded=1&host=abc&shop=s.myshopify.com&id_token=t&locale=en";
    expect(returnToOf(url)).toBe("/app/quotes/new?ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1");
    const target = new URL(onboardingUrl(url), "https://app.example");
    expect(target.pathname).toBe("/app/onboarding");
    expect(target.searchParams.get("returnTo")).toBe("/app/quotes/new?ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1");
    expect(Object.fromEntries([...target.searchParams].filter(([name]) => name !== "returnTo"))).toEqual({
      embedded: "1",
      host: "abc",
      shop: "s.myshopify.com",
      id_token: "t",
      locale: "en",
    });
  });

  it("GIVEN a Remix data request THEN _data is not part of returnTo", () => {
    expect(returnToOf("https://app.example/app/settings?_data=routes%2Fapp.settings")).toBe("/app/settings");
  });

  it.each([
    ["/app/quotes/new?id=1", "/app/quotes/new?id=1"],
    ["/app", "/app"],
    [null, "/app/settings"],
    ["", "/app/settings"],
    ["https://evil.example/app", "/app/settings"],
    ["//evil.example/app", "/app/settings"],
    ["/\\evil.example", "/app/settings"],
    ["/application", "/app/settings"],
    ["/auth/login", "/app/settings"],
    ["/app/onboarding?returnTo=/app", "/app/settings"],
    ["/app/../auth/login", "/app/settings"],
  ])("GIVEN returnTo %j THEN onboarding goes to %s", (value, expected) => {
    expect(safeReturnTo(value)).toBe(expected);
  });

  it("GIVEN quoting that needs a setting THEN Settings is opened returning to the same selection, and goes back there once saved", () => {
    const quoting =
      "https://app.example/app/quotes/new?embedded=1&host=abc&ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1&ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F2";
    const settings = settingsUrlReturningTo(quoting);
    expect(settings).toBe(
      "/app/settings?returnTo=%2Fapp%2Fquotes%2Fnew%3Fids%255B%255D%3Dgid%253A%252F%252Fshopify%252FOrder%252F1%26ids%255B%255D%3Dgid%253A%252F%252Fshopify%252FOrder%252F2",
    );
    expect(settingsReturnTo(`https://app.example${settings}&embedded=1`)).toBe(
      "/app/quotes/new?ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F1&ids%5B%5D=gid%3A%2F%2Fshopify%2FOrder%2F2",
    );
  });

  it.each([
    ["no returnTo", "https://app.example/app/settings"],
    ["Settings itself", "https://app.example/app/settings?returnTo=%2Fapp%2Fsettings%3Fx%3D1"],
    ["another origin", "https://app.example/app/settings?returnTo=https%3A%2F%2Fevil.example%2Fapp"],
    ["onboarding", "https://app.example/app/settings?returnTo=%2Fapp%2Fonboarding"],
  ])("GIVEN Settings with %s THEN a save stays on Settings", (_what, url) => {
    expect(settingsReturnTo(url)).toBeNull();
  });
});
