/**
 * An open batch as the service has it (Get Batch's quotes) against the shipments Consign put in it, pure.
 * The service is the truth about which quotes are in the batch; Consign knows which order each quote is
 * for and which rate is picked now. Every change is made on the service first, so a crash between the
 * service call and the local write leaves a difference this comparison shows and `repairPlan` closes.
 */

export type RemoteQuoteStatus = "active" | "booked" | "expired";

export interface RemoteQuote {
  quoteId: number;
  status: RemoteQuoteStatus;
  expiresAt: Date;
}

export interface Member {
  shipmentId: string;
  selectedQuoteId: number | null;
  selectedQuoteExpiresAt: Date | null;
}

export interface MembershipView {
  /** Per member: the remote entry of its picked rate (null when the picked rate is not in the batch). */
  members: Array<{ shipmentId: string; inBatch: RemoteQuote | null; expired: boolean }>;
  /** Remote quotes of members that are not their picked rate any more (re-quoted or re-picked). */
  superseded: RemoteQuote[];
  /** Remote quotes Consign cannot tie to a member. */
  orphans: RemoteQuote[];
}

export function isExpired(quote: { status?: RemoteQuoteStatus; expiresAt: Date | null }, now: Date): boolean {
  if (quote.status === "expired") return true;
  if (quote.status === "booked") return false;
  return quote.expiresAt === null || quote.expiresAt.getTime() <= now.getTime();
}

/** `owners`: the member each known remote quote id belongs to (from the members' stored rates). */
export function compareMembership(remote: readonly RemoteQuote[], members: readonly Member[], owners: ReadonlyMap<number, string>, now: Date): MembershipView {
  const byId = new Map(remote.map((quote) => [quote.quoteId, quote]));
  const memberIds = new Set(members.map((member) => member.shipmentId));
  const picked = new Set(members.flatMap((member) => (member.selectedQuoteId === null ? [] : [member.selectedQuoteId])));
  const superseded: RemoteQuote[] = [];
  const orphans: RemoteQuote[] = [];
  for (const quote of remote) {
    if (picked.has(quote.quoteId)) continue;
    const owner = owners.get(quote.quoteId);
    if (owner !== undefined && memberIds.has(owner)) superseded.push(quote);
    else orphans.push(quote);
  }
  return {
    members: members.map((member) => {
      const inBatch = member.selectedQuoteId === null ? null : (byId.get(member.selectedQuoteId) ?? null);
      const expired = inBatch
        ? isExpired({ status: inBatch.status, expiresAt: member.selectedQuoteExpiresAt ?? inBatch.expiresAt }, now)
        : isExpired({ expiresAt: member.selectedQuoteExpiresAt }, now);
      return { shipmentId: member.shipmentId, inBatch, expired };
    }),
    superseded,
    orphans,
  };
}

export interface RepairPlan {
  /** Quote ids to take out of the batch: superseded rates and expired leftovers. */
  remove: number[];
  /** Members whose picked rate expired: they get new rates first. */
  requote: string[];
  /** Members whose (live) picked rate is not in the batch: added after re-quoting. */
  add: string[];
}

/**
 * What "Re-quote expired rates" does for this view: take out superseded rates and every expired one (the
 * members' too: they are about to be replaced), re-quote, then add the picked rates that are missing.
 * Running it again after a crash or an error continues where it stopped.
 */
export function repairPlan(view: MembershipView, now: Date): RepairPlan {
  return {
    remove: [
      ...view.members.flatMap((member) => (member.expired && member.inBatch ? [member.inBatch.quoteId] : [])),
      ...view.superseded.map((quote) => quote.quoteId),
      ...view.orphans.filter((quote) => isExpired(quote, now)).map((quote) => quote.quoteId),
    ],
    requote: view.members.filter((member) => member.expired).map((member) => member.shipmentId),
    add: view.members.filter((member) => !member.expired && member.inBatch === null).map((member) => member.shipmentId),
  };
}

/** Why the batch cannot be booked as it stands, in the merchant's words; empty when it can. */
export function bookingBlockers(view: MembershipView, now: Date): string[] {
  const blockers: string[] = [];
  const expired = view.members.filter((member) => member.expired).length + view.orphans.filter((quote) => isExpired(quote, now)).length;
  if (expired > 0) blockers.push(`${expired} rate${expired === 1 ? " has" : "s have"} expired. Choose “Re-quote expired rates”, then book.`);
  const missing = view.members.filter((member) => !member.expired && member.inBatch === null).length + view.superseded.length;
  if (missing > 0)
    blockers.push(
      `${missing} order${missing === 1 ? "'s" : "s'"} picked rate is not the one in the batch yet. Choose “Re-quote expired rates” to bring the batch up to date.`,
    );
  const unknown = view.orphans.filter((quote) => !isExpired(quote, now)).length;
  if (unknown > 0)
    blockers.push(
      `The batch holds ${unknown} rate${unknown === 1 ? "" : "s"} Consign cannot tie to an order. Remove ${unknown === 1 ? "it" : "them"} below before booking.`,
    );
  if (view.members.length === 0) blockers.push("The batch has no orders. Add orders first.");
  return blockers;
}
