import type { MetaFunction, SerializeFrom } from "@remix-run/node";
import { useMatches } from "@remix-run/react";
import { TitleBar } from "@shopify/app-bridge-react";

/**
 * A page's title, said once in its route's `handle`: the admin's title bar shows it (`PageTitleBar`) and the
 * document's title is "<title> · Consign" (`export const meta = pageMeta` beside the handle: Remix hands a
 * route's meta function only the matches up to that route, so the layout's cannot see the page's handle), so
 * screen readers, tabs and history name the page. A title that depends on the page's data (a batch's name, an order's) is a function of the loader's
 * data.
 */
export interface PageHandle<Loader = unknown> {
  title: string | ((data: SerializeFrom<Loader>) => string);
}

export const APP_NAME = "Consign";

interface TitledMatch {
  handle?: unknown;
  data?: unknown;
}

/** The deepest matched route's title, or null when none has one (or its data is missing: an error page). */
export function pageTitleOf(matches: readonly TitledMatch[]): string | null {
  for (let index = matches.length - 1; index >= 0; index--) {
    const { handle, data } = matches[index]!;
    const title = (handle as Partial<PageHandle> | undefined)?.title;
    if (typeof title === "string") return title;
    if (typeof title === "function") return data === undefined || data === null ? null : title(data as never);
  }
  return null;
}

export function documentTitle(matches: readonly TitledMatch[]): string {
  const title = pageTitleOf(matches);
  return title ? `${title} · ${APP_NAME}` : APP_NAME;
}

/** A page route's meta: its document title from the handles matched up to it. */
export const pageMeta: MetaFunction = ({ matches }) => [{ title: documentTitle(matches) }];

/** The admin's title bar for the current page, from its route's `handle.title`. */
export function PageTitleBar() {
  return <TitleBar title={pageTitleOf(useMatches()) ?? APP_NAME} />;
}
