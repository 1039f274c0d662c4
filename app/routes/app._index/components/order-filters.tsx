import { useNavigate, useSearchParams } from "@remix-run/react";
import { InlineStack, Select, TextField } from "@shopify/polaris";
import { memo, useEffect, useRef, useState } from "react";
import { AGE_FILTERS, FILTER_PARAMS } from "../../../orders/order-list-query";

type FilterName = (typeof FILTER_PARAMS)[number];

/** One filter of the list as a select: its parameter, its label, the value that means "any", what it offers. */
interface FilterSelect {
  name: FilterName;
  label: string;
  any: string;
  options: Array<{ label: string; value: string }>;
}

/** The filters whose "any" is a choice of its own (the others add "Any" before what the list offers). */
const SCOPE_OPTIONS = [
  { label: "All", value: "all" },
  { label: "Domestic", value: "domestic" },
  { label: "International", value: "international" },
];
const QUOTED_OPTIONS = [
  { label: "Any", value: "any" },
  { label: "Already quoted", value: "quoted" },
  { label: "Not quoted yet", value: "not-quoted" },
];

/** How long typing rests before the search applies: one list read per pause, not per key. */
export const SEARCH_PAUSE_MS = 350;

/**
 * Orders to ship's search and filters. Each applies as it is chosen, without a Search button: a select at once,
 * the search when typing pauses (or on Enter). The URL is the one source of truth: applying a filter navigates
 * to the list's URL with it (back to the first page), so the loader reads the list once, and the search text
 * follows the URL when it changes from elsewhere (Back, a link). Typing replaces the history entry rather than
 * adding one per pause.
 */
export const OrderFilters = memo(function OrderFilters({ countries, tags }: { countries: Array<{ code: string; name: string }>; tags: string[] }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const urlSearch = params.get("q") ?? "";
  const [search, setSearch] = useState(urlSearch);
  // The search this page last put in the URL: a URL that says otherwise was changed elsewhere and is followed.
  const applied = useRef(urlSearch);
  useEffect(() => {
    if (urlSearch !== applied.current) setSearch(urlSearch);
    applied.current = urlSearch;
  }, [urlSearch]);

  /** The list's URL with `changes` (the typed search among them), on its first page. */
  const apply = (changes: Partial<Record<FilterName, string>>, replace = false) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries({ q: search.trim(), ...changes })) {
      if (value && value !== "all" && value !== "any") next.set(name, value);
      else next.delete(name);
    }
    next.delete("page");
    if (next.toString() === params.toString()) return;
    applied.current = next.get("q") ?? "";
    navigate(`?${next.toString()}`, { replace, preventScrollReset: true });
  };

  useEffect(() => {
    if (search.trim() === urlSearch) return;
    const timer = setTimeout(() => apply({}, true), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
    // Restarted by each key; `apply` reads the params of this render, which change only with the URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search, urlSearch]);

  const selects: FilterSelect[] = [
    { name: "scope", label: "Destination", any: "all", options: SCOPE_OPTIONS },
    { name: "country", label: "Country", any: "", options: countries.map((country) => ({ label: country.name, value: country.code })) },
    { name: "tag", label: "Tag", any: "", options: tags.map((tag) => ({ label: tag, value: tag })) },
    { name: "age", label: "Age", any: "", options: Object.entries(AGE_FILTERS).map(([days, label]) => ({ label, value: days })) },
    { name: "quoted", label: "Rates", any: "any", options: QUOTED_OPTIONS },
  ];
  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        apply({});
      }}
    >
      <InlineStack gap="300" blockAlign="end">
        <div style={{ minWidth: 280 }}>
          <TextField label="Search" labelHidden name="q" value={search} onChange={setSearch} placeholder="Order, email or address" autoComplete="off" />
        </div>
        {selects.map((filter) => (
          <Select
            key={filter.name}
            label={filter.label}
            labelInline
            options={filter.any === "all" || filter.any === "any" ? filter.options : [{ label: "Any", value: "" }, ...filter.options]}
            value={params.get(filter.name) ?? filter.any}
            onChange={(value) => apply({ [filter.name]: value })}
          />
        ))}
      </InlineStack>
    </form>
  );
});
