import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { LabelRunView, MODAL_ORDER_LIMIT } from "../../../app/extension/label-run-view";

/**
 * admin.order-index.selection-action.render (More actions over the selected orders) and
 * admin.order-details.action.render (an order's page): buy the orders' labels without leaving Shopify's order
 * list. The app quotes them with the shop's rule (`POST /api/label-runs`), the modal follows the run
 * (`GET /api/label-runs/:runId`) to the picks and the total, **Buy N labels** buys them as one batch (`POST` to
 * the run, again once the batch is open: the app books it once), then follows the booking and the write-back
 * and offers **Print labels** (the Print menu's labels document). Relative URLs are the app's; Shopify adds the
 * session token. More than 50 orders, or anything to fix, open Consign's rates page (`app:` links).
 */
export default async () => {
  render(<BuyLabels />, document.body);
};

/** How often the modal reads the run while quoting or buying. */
const POLL_MS = 1000;

type Load = { state: "starting" } | { state: "failed"; message: string } | { state: "loaded"; view: LabelRunView };

/** `/app/quotes/1` → `app:app/quotes/1`: a path inside the app, opened in the admin. */
const appLink = (path: string) => `app:${path.replace(/^\//, "")}`;
const numberOf = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);

async function errorOf(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => null);
  return body && typeof body === "object" && "error" in body ? String(body.error) : `Consign answered ${response.status}. Close this and try again.`;
}

async function call(path: string, method: "GET" | "POST"): Promise<{ ok: true; body: unknown } | { ok: false; message: string }> {
  try {
    const response = await fetch(path, { method });
    if (!response.ok) return { ok: false, message: await errorOf(response) };
    return { ok: true, body: await response.json() };
  } catch {
    return { ok: false, message: "Consign could not be reached. Close this and try again." };
  }
}

async function readRun(runId: string): Promise<Load> {
  const answer = await call(`/api/label-runs/${runId}`, "GET");
  if (!answer.ok) return { state: "failed", message: answer.message };
  const view = LabelRunView.safeParse(answer.body);
  return view.success
    ? { state: "loaded", view: view.data }
    : { state: "failed", message: "Consign answered in a form this modal does not understand. Reload the page." };
}

function BuyLabels() {
  const selected = shopify.data.selected.map((resource) => resource.id);
  const tooMany = selected.length > MODAL_ORDER_LIMIT;
  const [runId, setRunId] = useState<string | null>(null);
  const [load, setLoad] = useState<Load>({ state: "starting" });
  const [bought, setBought] = useState(false);
  const [buying, setBuying] = useState(false);

  // Quote the selection once, as the modal opens (the selection does not change while it is open).
  useEffect(() => {
    if (tooMany || selected.length === 0) return;
    void call(`/api/label-runs?${new URLSearchParams({ orders: selected.map(numberOf).join(",") }).toString()}`, "POST").then((answer) => {
      if (!answer.ok) setLoad({ state: "failed", message: answer.message });
      else setRunId(String((answer.body as { runId: unknown }).runId));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per modal, on the selection it opened with
  }, []);

  // Follow the run while it quotes or buys; once the batch Buy created is open, buy again: the app books it once.
  useEffect(() => {
    if (!runId) return;
    let stopped = false;
    const follow = async () => {
      const next = await readRun(runId);
      if (stopped) return;
      setLoad(next);
      if (next.state !== "loaded") return;
      const { view } = next;
      if (bought && view.booking?.state === "open") await call(`/api/label-runs/${runId}`, "POST");
      const writingBack = view.booking !== null && view.booking.writtenBack < view.booking.booked;
      if (view.stage === "quoting" || view.stage === "buying" || writingBack) setTimeout(() => void follow(), POLL_MS);
    };
    void follow();
    return () => {
      stopped = true;
    };
  }, [runId, bought]);

  const buy = async () => {
    if (!runId) return;
    setBuying(true);
    const answer = await call(`/api/label-runs/${runId}`, "POST");
    setBuying(false);
    if (!answer.ok) setLoad({ state: "failed", message: answer.message });
    else setBought(true);
  };

  if (tooMany) {
    const path = `/app/quotes/new?${new URLSearchParams(selected.map((id) => ["ids[]", id])).toString()}`;
    return (
      <s-admin-action heading="Buy shipping labels">
        <s-paragraph>
          {selected.length} orders selected. This window buys labels for up to {MODAL_ORDER_LIMIT} orders at a time; Consign&apos;s rates page takes them all.
        </s-paragraph>
        <s-button slot="primary-action" variant="primary" href={appLink(path)}>
          Open in Consign
        </s-button>
        <CloseButton />
      </s-admin-action>
    );
  }

  const view = load.state === "loaded" ? load.view : null;
  const buyable = view?.stage === "ready" && view.picks.length > 0 && !bought;
  return (
    <s-admin-action heading="Buy shipping labels" loading={load.state === "starting"}>
      {load.state === "starting" && <s-paragraph>Getting rates for {selected.length === 1 ? "this order" : `${selected.length} orders`}…</s-paragraph>}
      {load.state === "failed" && (
        <s-banner tone="critical" heading="Labels could not be bought here">
          <s-paragraph>{load.message}</s-paragraph>
        </s-banner>
      )}
      {view && <RunSummary view={view} />}
      {buyable && (
        <s-button slot="primary-action" variant="primary" disabled={buying} onClick={() => void buy()}>
          Buy {view.picks.length} {view.picks.length === 1 ? "label" : "labels"}
        </s-button>
      )}
      {view?.printPath && view.stage === "booked" && (
        <s-button slot="primary-action" variant="primary" href={appLink(view.printPath)}>
          Print labels
        </s-button>
      )}
      {view && (
        <s-button slot="secondary-actions" href={appLink(view.booking?.batchPath ?? view.reviewPath)}>
          Open in Consign
        </s-button>
      )}
      <CloseButton />
    </s-admin-action>
  );
}

/** Closes the modal (Shopify's admin, or the local admin's More actions). */
function CloseButton() {
  return (
    <s-button slot="secondary-actions" onClick={() => shopify.close()}>
      Close
    </s-button>
  );
}

function RunSummary({ view }: { view: LabelRunView }) {
  const { booking } = view;
  return (
    <s-stack gap="base">
      {view.stage === "quoting" && (
        <s-stack gap="small-200">
          <s-paragraph>
            Getting rates: {view.progress.done} of {view.progress.total} {view.progress.total === 1 ? "shipment" : "shipments"}
          </s-paragraph>
          <s-progress value={view.progress.done} max={Math.max(1, view.progress.total)} accessibilityLabel="Rates received" />
        </s-stack>
      )}
      {view.message && (
        <s-banner tone={view.stage === "failed" ? "critical" : "info"}>
          <s-paragraph>{view.message}</s-paragraph>
        </s-banner>
      )}
      {view.stage !== "quoting" && view.picks.length > 0 && (
        <s-stack gap="small-200">
          <s-text type="strong">
            {booking
              ? `${view.picks.length} ${view.picks.length === 1 ? "label" : "labels"} · ${view.total}`
              : `${view.picks.length} ${view.picks.length === 1 ? "order" : "orders"} can ship · ${view.total}`}
          </s-text>
          <s-unordered-list>
            {view.picks.map((pick) => (
              <s-list-item key={`${pick.orderName}-${pick.carrier}-${pick.service}`}>
                {pick.orderName}: {pick.carrier} · {pick.service} · {pick.price}
              </s-list-item>
            ))}
          </s-unordered-list>
        </s-stack>
      )}
      {view.problems.length > 0 && (
        <s-banner tone="warning" heading={`${view.problems.length} ${view.problems.length === 1 ? "order needs" : "orders need"} you in Consign`}>
          <s-unordered-list>
            {view.problems.map((problem) => (
              <s-list-item key={`${problem.orderName}-${problem.reason}`}>
                {problem.orderName}: {problem.reason}
              </s-list-item>
            ))}
          </s-unordered-list>
        </s-banner>
      )}
      {view.checkpoint && !booking && <s-paragraph>{view.checkpoint}</s-paragraph>}
      {booking && (
        <s-banner tone={booking.state === "settled" ? (booking.failed > 0 ? "warning" : "success") : "info"} heading={bookingHeading(booking)}>
          <s-paragraph>
            {booking.state === "settled"
              ? `Written back to Shopify: ${booking.writtenBack} of ${booking.booked}.${booking.writtenBack < booking.booked ? " Consign adds each tracking number to its order in a moment." : ""}`
              : "You can close this: Consign finishes the booking and writes the tracking numbers back to Shopify."}
          </s-paragraph>
        </s-banner>
      )}
    </s-stack>
  );
}

function bookingHeading(booking: NonNullable<LabelRunView["booking"]>): string {
  if (booking.state === "creating" || booking.state === "open") return "Preparing the labels…";
  if (booking.state === "booking") return "Buying the labels…";
  const failed = booking.failed > 0 ? `, ${booking.failed} failed` : "";
  return `${booking.booked} ${booking.booked === 1 ? "label" : "labels"} bought${failed}`;
}
