import { speedClass } from "./rate-rule";
import { formatMoney } from "../shipping/money";

/**
 * How the rates page words a rate's weight and speed: weights always with their unit, billed weight with
 * how it was billed, speed from the shop's own deliveries when it has enough, else from the service's name
 * (the Shipping API gives no transit times). Pure.
 */

/** "2.5 lb"; a weight is never shown without its unit. */
export function formatWeight(value: string, unit: string): string {
  return `${value} ${unit}`;
}

/** "3 lb billed (dimensional)" / "2.5 lb billed (actual)". */
export function billedWeight(rate: { quotedWeight: string; quotedWeightType: string }, unit: string): string {
  return `${formatWeight(rate.quotedWeight, unit)} billed (${rate.quotedWeightType.toLowerCase()})`;
}

/**
 * "usually 2–3 days (41 deliveries)" when the shop has observed the service to that zone, else the speed
 * class judged by the name: "Express (by service name)".
 */
export function deliverySpeed(rate: { serviceCode: string; serviceDescription: string }, observedTransit: string | null): string {
  if (observedTransit) return observedTransit;
  const label = speedClass(rate).label;
  return `${label.charAt(0).toUpperCase()}${label.slice(1)} (by service name)`;
}

/** "Fuel $1.20, Residential $4.00", or "—" for a rate with none. */
export function surchargesText(surcharges: ReadonlyArray<{ description: string; amount: string }>, currency: string): string {
  return surcharges.length === 0 ? "—" : surcharges.map((charge) => `${charge.description} ${formatMoney(charge.amount, currency)}`).join(", ");
}
