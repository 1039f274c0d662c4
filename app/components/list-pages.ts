import { useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import type { IndexTableProps } from "@shopify/polaris";

/**
 * Lists paged on the server (`?page=N`, 50 rows a page): the page turn that keeps the list's other parameters,
 * and an IndexTable's pagination for it, labelled "Page 2 of 61 · …" (none while one page holds everything).
 */

/** Goes to page `page` of the list, its filters kept; page 1 is the URL without `page`. */
export function usePageTurn(): (page: number) => void {
  const [params, setParams] = useSearchParams();
  return (page) => {
    const next = new URLSearchParams(params);
    if (page > 1) next.set("page", String(page));
    else next.delete("page");
    setParams(next);
  };
}

/** Goes to a list's tab `id` (the URL's `param`: `?status=delivered`), from its first page, its other filters kept. */
export function useTabTurn(param: string): (id: string) => void {
  const [params, setParams] = useSearchParams();
  return (id) => {
    const next = new URLSearchParams(params);
    next.set(param, id);
    next.delete("page");
    setParams(next);
  };
}

/**
 * Whether the list on screen is loading another page or filter of itself (a navigation to the same page that posts
 * nothing). The list says so at once (IndexTable's `loading`, the page buttons held): a click is answered with a
 * paint, not with nothing until the next page's data arrives, which is what a merchant (and INP) waits for.
 */
export function useListLoading(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === "loading" && navigation.formData === undefined && navigation.location.pathname === location.pathname;
}

/**
 * A paged list's controls: the IndexTable pagination that turns its pages, and whether another page (or filter) of
 * it is loading, for the table's `loading`.
 */
export function useListPages(list: { page: number; pages: number }, detail?: string): { pagination: IndexTableProps["pagination"]; loading: boolean } {
  const turn = usePageTurn();
  const loading = useListLoading();
  return { pagination: listPagination(list, turn, detail, loading), loading };
}

/** The pagination of a list (`loading`: another page is on its way, so neither button turns again meanwhile). */
export function listPagination(
  list: { page: number; pages: number },
  turn: (page: number) => void,
  detail?: string,
  loading = false,
): IndexTableProps["pagination"] {
  if (list.pages <= 1) return undefined;
  return {
    hasPrevious: !loading && list.page > 1,
    hasNext: !loading && list.page < list.pages,
    onPrevious: () => turn(list.page - 1),
    onNext: () => turn(list.page + 1),
    label: `Page ${list.page} of ${list.pages}${detail ? ` · ${detail}` : ""}`,
  };
}
