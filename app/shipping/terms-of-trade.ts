import type { TermsOfTrade } from "../../shipping-api/contract";

/**
 * The terms of trade (Incoterms) in a few words a merchant reads: who pays what at the border. The select
 * shows "DAP — the customer pays import duties"; the code goes to the Shipping API.
 */
export const TERMS_OF_TRADE_WORDS: Record<TermsOfTrade, string> = {
  DAP: "the customer pays import duties",
  DDP: "you pay import duties and taxes",
  DAT: "delivered to a terminal; the customer pays import duties",
  CPT: "you pay carriage to the destination; the customer pays import duties",
  CIP: "you pay carriage and insurance to the destination; the customer pays import duties",
  FCA: "handed to the customer's carrier; the customer pays carriage and duties",
  EXW: "the customer collects from you and pays everything",
};

/** Options for a terms-of-trade select: "DAP — the customer pays import duties". */
export function termsOfTradeOptions(codes: readonly string[]): Array<{ value: string; label: string }> {
  return codes.map((code) => ({ value: code, label: code in TERMS_OF_TRADE_WORDS ? `${code} — ${TERMS_OF_TRADE_WORDS[code as TermsOfTrade]}` : code }));
}
