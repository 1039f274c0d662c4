import type { WeightUnit } from "../store/types.js";

const GRAMS_PER: Record<WeightUnit, number> = {
  GRAMS: 1,
  KILOGRAMS: 1000,
  OUNCES: 28.349523125,
  POUNDS: 453.59237,
};

export function toGrams(unit: WeightUnit, value: number): number {
  return value * GRAMS_PER[unit];
}
