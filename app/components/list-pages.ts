import { useSearchParams } from "@remix-run/react";
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

export function listPagination(list: { page: number; pages: number }, turn: (page: number) => void, detail?: string): IndexTableProps["pagination"] {
  if (list.pages <= 1) return undefined;
  return {
    hasPrevious: list.page > 1,
    hasNext: list.page < list.pages,
    onPrevious: () => turn(list.page - 1),
    onNext: () => turn(list.page + 1),
    label: `Page ${list.page} of ${list.pages}${detail ? ` · ${detail}` : ""}`,
  };
}
