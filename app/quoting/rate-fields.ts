/**
 * The fields of a quote that travel unchanged from the Shipping API's Quote into a shipment's stored rates and on
 * to the pages: one copy of the list, so a field added to a rate is added everywhere it is carried.
 */

/** What a quote offers: carrier, service and price. */
export interface Rate {
  quoteId: number;
  carrierCode: string;
  serviceCode: string;
  serviceDescription: string;
  packageTypeCode: string;
  currency: string;
  totalAmount: string;
}

/** A rate with how the service priced it: the base amount, the zone and the weight it charged for. */
export interface PricedRate extends Rate {
  baseAmount: string;
  zone: string;
  quotedWeight: string;
  quotedWeightType: string;
}

/** Just the rate of a quote (a stored row or the service's Quote), without the row's other columns. */
export function rateOf(quote: Rate): Rate {
  return {
    quoteId: quote.quoteId,
    carrierCode: quote.carrierCode,
    serviceCode: quote.serviceCode,
    serviceDescription: quote.serviceDescription,
    packageTypeCode: quote.packageTypeCode,
    currency: quote.currency,
    totalAmount: quote.totalAmount,
  };
}

/** The rate of a quote with its pricing. */
export function pricedRateOf(quote: PricedRate): PricedRate {
  return { ...rateOf(quote), baseAmount: quote.baseAmount, zone: quote.zone, quotedWeight: quote.quotedWeight, quotedWeightType: quote.quotedWeightType };
}
