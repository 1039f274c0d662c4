/**
 * The app as the local admin reaches it in an integration test, where the app runs in the test's own process: a
 * request for a route Shopify itself calls (Flow's trigger lifecycle callback) is answered by the route module,
 * imported on first use (after the test has set the app's environment); any other request goes out with the global
 * fetch as before (the harness's app URL answers nothing, so the local admin's webhook deliveries fail as they did).
 */

type RouteModule = { action: (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown> };

const ROUTES: Readonly<Record<string, () => Promise<RouteModule>>> = {
  "/flow/lifecycle": () => import("../../app/routes/flow.lifecycle"),
};

export const appRoutesFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const route = ROUTES[url.pathname];
  if (!route) return fetch(input, init);
  const request = new Request(input, init);
  try {
    const answer = await (await route()).action({ request, params: {}, context: {} });
    return answer instanceof Response ? answer : Response.json(answer);
  } catch (thrown) {
    // A route's refusal thrown as a Response (a body over its bound: 413) is its answer.
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
};
