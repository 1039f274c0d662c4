import { json } from "@remix-run/node";

/** The highest page a list's URL can name: far past any shop's lists (50 rows a page), well inside a number. */
const MAX_PAGE = 1_000_000;

/**
 * The page of a list in its URL (`?page=N`, the lists paged on the server): page 1 when the URL has none. A page
 * that is not a whole number from 1 (`page=0`, `page=0.0000001`, `page=x`) is the sender's mistake: refused with
 * 400 naming the parameter, never a 500 and never silently another page.
 */
export function listPageOf(params: URLSearchParams): number {
  const value = params.get("page");
  if (value === null || value === "") return 1;
  const page = /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN;
  if (page >= 1 && page <= MAX_PAGE) return page;
  throw json({ error: `page must be a whole number from 1 to ${MAX_PAGE.toLocaleString("en-US")}, not “${value.slice(0, 20)}”.` }, { status: 400 });
}
