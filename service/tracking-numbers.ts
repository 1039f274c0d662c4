import type { CarrierKind } from "./catalog";
import { hashOf } from "./tracking";

/**
 * Book and tracking numbers. Each comes from a unique serial (a database counter), so uniqueness needs
 * no retries; the serial is scrambled by an affine bijection so consecutive shipments do not look
 * sequential, and each carrier kind gets its real-world format and check digit:
 * postal 22-digit IMpb-style (mod 10), parcel 1Z (UPS-style mod 10), express 12-digit (mod 11,
 * weights 1,3,7), consolidator S10-style (two letters, 8 digits, mod 11, "US").
 */

/**
 * Bijection on [0, 10^digits): x → (a·x + b) mod 10^digits with `a` coprime with 10. `a` is about
 * 0.618 × 10^digits (golden-ratio hashing), so neighbouring serials land far apart.
 */
function scramble(serial: number, digits: number): string {
  const modulus = 10n ** BigInt(digits);
  const value = (BigInt(serial) * multiplierFor(digits) + modulus / 7n) % modulus;
  return value.toString().padStart(digits, "0");
}

const multipliers = new Map<number, bigint>();
function multiplierFor(digits: number): bigint {
  let multiplier = multipliers.get(digits);
  if (multiplier === undefined) {
    const modulus = 10n ** BigInt(digits);
    multiplier = (modulus * 6_180_339_887n) / 10_000_000_000n;
    // Odd and not a multiple of 5: then it is a unit modulo 10^digits.
    while (multiplier % 2n === 0n || multiplier % 5n === 0n) multiplier += 1n;
    multipliers.set(digits, multiplier);
  }
  return multiplier;
}

/** USPS / GS1 mod 10: weights 3,1,3… from the right. */
export function mod10CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** UPS 1Z check digit over the 15 characters after "1Z": letters map to (ord - 63) % 10, odd positions doubled. */
export function upsCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    const value = /\d/.test(char) ? Number(char) : (char.charCodeAt(0) - 63) % 10;
    sum += i % 2 === 1 ? value * 2 : value;
  }
  return (10 - (sum % 10)) % 10;
}

/** FedEx-style 12-digit check: weights 1,3,7 repeating from the right over 11 digits, mod 11 (10 → 0). */
export function express12CheckDigit(digits: string): number {
  const weights = [1, 3, 7];
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * weights[i % 3]!;
  return (sum % 11) % 10;
}

/** UPU S10 check digit over 8 digits: weights 8,6,4,2,3,5,9,7; 11 - sum mod 11, 10 → 0, 11 → 5. */
export function s10CheckDigit(digits: string): number {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(digits[i]) * weights[i]!;
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** Six upper-case alphanumerics standing for the shipper's account in 1Z numbers. */
export function shipperCode(customerId: string): string {
  return hashOf(customerId).toString(36).toUpperCase().padStart(6, "0").slice(-6);
}

export function trackingNumberFor(kind: CarrierKind, serial: number, customerId: string, serviceIndex: number): string {
  switch (kind) {
    case "postal": {
      const body = `94001${scramble(serial, 16)}`;
      return `${body}${mod10CheckDigit(body)}`;
    }
    case "parcel": {
      const body = `${shipperCode(customerId)}${String(serviceIndex % 100).padStart(2, "0")}${scramble(serial, 7)}`;
      return `1Z${body}${upsCheckDigit(body)}`;
    }
    case "express": {
      const body = `7${scramble(serial, 10)}`;
      return `${body}${express12CheckDigit(body)}`;
    }
    case "consolidator": {
      const digits = scramble(serial, 8);
      return `GC${digits}${s10CheckDigit(digits)}US`;
    }
  }
}

/** The last-mile (postal) number a consolidator hands its parcels over with. */
export function lastMileTrackingNumberFor(serial: number): string {
  const body = `92612${scramble(serial + 500_000_000, 16)}`;
  return `${body}${mod10CheckDigit(body)}`;
}

export function bookNumberFor(serial: number): string {
  return `CN${scramble(serial, 10)}`;
}
