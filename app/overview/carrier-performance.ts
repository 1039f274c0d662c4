import { groupedBy } from "../grouped";
import { speedClass } from "../quoting/rate-rule";
import { carrierName, NO_NAMES, type ServiceNames } from "../shipping/service-names";
import { transitDays } from "../tracking/transit-times";

/**
 * How carriers performed on delivered shipments: the share delivered on time and the transit time observed
 * (from the carrier's first pickup scan to delivery, in whole days: tracking's `transitDays`, the same count the
 * rates page's "usually 2–3 days" is made of). The Shipping API publishes no delivery promises, so
 * "on time" is judged against the service's speed class (the same reading of its name the Fastest rule
 * uses): overnight 1 day, express / 2-day 2, 3-day 3, priority 3, ground and anything else 5.
 */

export interface DeliveredShipment {
  carrierCode: string;
  serviceCode: string;
  serviceDescription: string | null;
  /** The carrier's first scan in transit (pickup) and its delivery, as tracking recorded them. */
  inTransitAt: Date;
  deliveredAt: Date;
}

export interface CarrierPerformance {
  carrierCode: string;
  /** The carrier's name from List Services (its code when the catalog does not know it). */
  carrier: string;
  delivered: number;
  onTime: number;
  /** onTime / delivered, or null when nothing was delivered. */
  onTimeRate: number | null;
  /** Mean days from pickup to delivery, one decimal. */
  averageTransitDays: number;
}

const PROMISED_DAYS: Record<string, number> = { overnight: 1, express: 2, "3-day": 3, priority: 3, ground: 5 };

/** Days the service's class promises; a delivery within that many days of pickup is on time. */
export function promisedTransitDays(shipment: Pick<DeliveredShipment, "serviceCode" | "serviceDescription">): number {
  return PROMISED_DAYS[speedClass({ serviceCode: shipment.serviceCode, serviceDescription: shipment.serviceDescription ?? "" }).label] ?? 5;
}

export function carrierPerformance(shipments: readonly DeliveredShipment[], names: ServiceNames = NO_NAMES): CarrierPerformance[] {
  const byCarrier = groupedBy(shipments, (shipment) => shipment.carrierCode);
  // A service's promise is read from its name once, not once per delivery (a busy shop delivers tens of thousands).
  const promised = new Map<string, number>();
  const promisedOf = (shipment: DeliveredShipment) => {
    const key = `${shipment.serviceCode}\n${shipment.serviceDescription ?? ""}`;
    let days = promised.get(key);
    if (days === undefined) promised.set(key, (days = promisedTransitDays(shipment)));
    return days;
  };
  return [...byCarrier.entries()]
    .map(([carrierCode, delivered]) => {
      const days = delivered.map(transitDays);
      const onTime = delivered.filter((shipment, index) => days[index]! <= promisedOf(shipment)).length;
      return {
        carrierCode,
        carrier: carrierName(names, carrierCode),
        delivered: delivered.length,
        onTime,
        onTimeRate: delivered.length > 0 ? onTime / delivered.length : null,
        averageTransitDays: Math.round((days.reduce((sum, value) => sum + value, 0) / delivered.length) * 10) / 10,
      };
    })
    .sort((a, b) => a.carrier.localeCompare(b.carrier));
}
