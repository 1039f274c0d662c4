import fc from "fast-check";
import type { z } from "zod";

/**
 * fast-check arbitraries derived from zod (v4) schemas: the shape, types, enums, lengths and bounds come from
 * the schema itself, so a change to the contract changes what the fuzz suite sends. Refinements a walker
 * cannot invert (a real calendar date, a US state code) come from `overrides` (by schema) and `hints` (by
 * field name); {@link validArbitrary} then keeps only values the schema accepts.
 */

export interface DeriveOptions {
  /** Arbitraries for particular schemas (refined primitives such as dates), used wherever they appear. */
  overrides?: ReadonlyMap<z.ZodType, fc.Arbitrary<unknown>>;
  /** Arbitraries for scalar fields by name (e.g. `state`, `zip`), for realistic values refinements accept. */
  hints?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Longest array generated (bounded by the schema's own maximum); default 3. */
  maxArray?: number;
}

interface Check {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number | bigint;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

interface Def {
  type: string;
  checks?: { _zod: { def: Check } }[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  format?: string;
  minimum?: number;
  maximum?: number;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Check[] => (def.checks ?? []).map((check) => check._zod.def);

function lengthBounds(def: Def, fallbackMax: number): { minLength: number; maxLength: number } {
  let minLength = 0;
  let maxLength = Number.POSITIVE_INFINITY;
  for (const check of checksOf(def)) {
    if (check.check === "min_length") minLength = Math.max(minLength, check.minimum ?? 0);
    if (check.check === "max_length") maxLength = Math.min(maxLength, check.maximum ?? maxLength);
    if (check.check === "length_equals") minLength = maxLength = check.length ?? 0;
  }
  return { minLength, maxLength: Math.max(minLength, Math.min(maxLength, Math.max(minLength, fallbackMax))) };
}

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  const checks = checksOf(def);
  const { minLength, maxLength } = lengthBounds(def, 24);
  if (def.format === "email") {
    return fc
      .tuple(fc.stringMatching(/^[a-z0-9]{1,16}(\.[a-z0-9]{1,8})?$/), fc.constantFrom("example.com", "consign.test", "mail.example.co.uk"))
      .map(([local, domain]) => `${local}@${domain}`);
  }
  const regex = checks.find((check) => check.check === "string_format" && check.format === "regex")?.pattern;
  if (regex) return fc.stringMatching(regex).filter((text) => text.length >= minLength && text.length <= lengthBounds(def, 1_000).maxLength);
  return fc.string({ minLength, maxLength, unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.,#/'&éüß") });
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  const checks = checksOf(def);
  const integer = checks.some((check) => check.check === "number_format" && (check.format === "safeint" || check.format === "int32"));
  const step = integer ? 1 : 1e-6;
  let min = -1e6;
  let max = 1e6;
  for (const check of checks) {
    if (check.check === "greater_than") min = Number(check.value) + (check.inclusive ? 0 : step);
    if (check.check === "less_than") max = Number(check.value) - (check.inclusive ? 0 : step);
  }
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values of the schema's input shape, before refinements; see {@link validArbitrary}. */
export function arbitraryFor(schema: z.ZodType, options: DeriveOptions = {}, key?: string): fc.Arbitrary<unknown> {
  const override = options.overrides?.get(schema);
  if (override) return override;
  const def = defOf(schema);
  const hint = key !== undefined ? options.hints?.[key] : undefined;
  if (hint && ["string", "number", "pipe", "nullable", "optional"].includes(def.type)) return hint;
  const derive = (inner: z.ZodType, innerKey = key) => arbitraryFor(inner, options, innerKey);
  switch (def.type) {
    case "string":
      return stringArbitrary(def);
    case "number":
      return numberArbitrary(def);
    case "boolean":
      return fc.boolean();
    case "literal":
      return fc.constantFrom(...(def.values ?? []));
    case "enum":
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case "unknown":
    case "any":
      return fc.jsonValue();
    case "optional":
      return fc.option(derive(def.innerType!), { nil: undefined });
    case "nullable":
      return fc.option(derive(def.innerType!), { nil: null });
    case "default":
      return fc.option(derive(def.innerType!), { nil: undefined });
    case "pipe":
      return derive(def.in!);
    case "union":
      return fc.oneof(...(def.options ?? []).map((option) => derive(option)));
    case "array": {
      const { minLength, maxLength } = lengthBounds(def, options.maxArray ?? 3);
      return fc.array(derive(def.element!, undefined), { minLength, maxLength });
    }
    case "record":
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), derive(def.valueType!, undefined), { maxKeys: 3 });
    case "object": {
      const shape = def.shape ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [name, field] of Object.entries(shape)) {
        const fieldDef = defOf(field);
        const optional = fieldDef.type === "optional" || fieldDef.type === "default";
        model[name] = optional ? derive(fieldDef.innerType!, name) : derive(field, name);
        if (!optional) requiredKeys.push(name);
      }
      return fc.record(model, { requiredKeys });
    }
    default:
      throw new Error(`no arbitrary for zod type ${def.type}${key ? ` (field ${key})` : ""}`);
  }
}

/** Values the schema accepts: derived from it, then filtered by it (refinements included). */
export function validArbitrary<S extends z.ZodType>(schema: S, options: DeriveOptions = {}): fc.Arbitrary<z.input<S>> {
  return arbitraryFor(schema, options).filter((value) => schema.safeParse(value).success) as fc.Arbitrary<z.input<S>>;
}
