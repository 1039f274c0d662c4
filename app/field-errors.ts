import type { z } from "zod";
import { formatIssuePath } from "../shipping-api/contract";
import type { FieldErrors } from "./outcome";
import { plural } from "./plural";

export type { FieldErrors };

/** The first message per field of zod issues, with `prefix` put in front of each path. */
export function fieldErrors(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  prefix: ReadonlyArray<PropertyKey> = [],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = formatIssuePath([...prefix, ...issue.path]);
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * What a merchant calls a field: the thing it belongs to ("Box 1", "Blue T-shirt (M)") and the field's own
 * name in the middle of a sentence ("weight", "HS code"). Either may be missing.
 */
export interface FieldName {
  subject?: string;
  label?: string;
}

/** Names a field from its path (`["items", 0, "htsNumber"]`), for a form's problems in its merchant's words. */
export type FieldNamer = (path: ReadonlyArray<PropertyKey>) => FieldName;

/** A problem that reads after a field's name ("must be more than 0", "is required"), not a sentence of its own. */
const PREDICATE = /^(is|are|must|may|has|have|needs|cannot|can|should|was|were)\b/;

/** The first letter in capitals, unless the word is already an abbreviation ("HS code" stays). */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lower case at the start, for text that follows a colon, unless it starts with an abbreviation or a quote. */
function continued(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/**
 * One problem of a form in words a merchant reads, starting with a capital and naming no internal field path:
 * "Box 1: weight must be more than 0", "Blue T-shirt (M): HS code must be 6 to 10 digits", "Service: choose
 * one of the options".
 */
export function sayProblem(name: FieldName, problem: string): string {
  const text = problem.trim().replace(/\.$/, "");
  // A sentence of its own names its field already ("describe the item"): the subject alone goes before it.
  const said = name.label && PREDICATE.test(text) ? `${name.label} ${text}` : name.label && !name.subject ? `${name.label}: ${continued(text)}` : text;
  return name.subject ? `${capitalised(name.subject)}: ${continued(said)}` : capitalised(said);
}

/** The field names a form without a namer of its own gives: the path's last word split into lower case ("shipmentIds" → "shipment ids"). */
export const plainFieldNames: FieldNamer = (path) => {
  const last = [...path].reverse().find((part) => typeof part === "string");
  return last ? { label: last.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() } : {};
};

/** "boxes[1].name" → ["boxes", 1, "name"]: a field's key (as fieldErrors writes it) back into its path, to name it. */
export function issuePathOf(key: string): PropertyKey[] {
  if (key === formatIssuePath([])) return [];
  return [...key.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((part) => (part[1] !== undefined ? Number(part[1]) : part[2]!));
}

/**
 * A form's problems, keyed by field (where the page shows each), as its refusal: each said in the merchant's
 * words through `names`, and all of them on one line for the message.
 */
export function describeFieldErrors(errors: FieldErrors, names: FieldNamer = plainFieldNames): { message: string; fieldErrors: FieldErrors } {
  const said: FieldErrors = {};
  for (const [key, problem] of Object.entries(errors)) said[key] = sayProblem(names(issuePathOf(key)), problem);
  return { message: Object.values(said).join("; ") || "The form could not be read. Reload the page and try again.", fieldErrors: said };
}

/** A validation's problems as a form's refusal: each field's first problem, said through `names` (describeFieldErrors). */
export function describeIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  names: FieldNamer = plainFieldNames,
): { message: string; fieldErrors: FieldErrors } {
  return describeFieldErrors(fieldErrors(issues), names);
}

/** Adds `more` to `errors`, keeping a message already there for the same field. */
export function mergeFieldErrors(errors: FieldErrors, more: FieldErrors): FieldErrors {
  for (const [key, message] of Object.entries(more)) errors[key] ??= message;
  return errors;
}

/**
 * What a form field's problem is, in the words a merchant reads beside the field ("is required", "must be
 * more than 0"), where a schema gives no message of its own: pass it as `safeParse(value, { error:
 * inMerchantWords })` when parsing what a merchant typed. Messages a schema spells out itself take precedence,
 * so the validation library's own text ("Too small: expected string to have >=1 characters") never reaches a
 * page. Returns undefined for what it has no words for, which keeps the library's message.
 */
export const inMerchantWords: z.core.$ZodErrorMap = (issue) => {
  const blank = issue.input === undefined || issue.input === null || issue.input === "";
  switch (issue.code) {
    case "invalid_type":
      if (blank) return "is required";
      return issue.expected === "number" || issue.expected === "int" ? "must be a number" : "is not valid here";
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? "is required" : `must be at least ${plural(issue.minimum, "character")}`;
      if (issue.origin === "array" || issue.origin === "set") return Number(issue.minimum) <= 1 ? "choose at least one" : `choose at least ${issue.minimum}`;
      if (Number(issue.minimum) === 0) return issue.inclusive ? "must be 0 or more" : "must be more than 0";
      return issue.inclusive ? `must be at least ${issue.minimum}` : `must be more than ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${plural(issue.maximum, "character")}`;
      if (issue.origin === "array" || issue.origin === "set") return `may have at most ${issue.maximum}`;
      return issue.inclusive ? `must be at most ${issue.maximum}` : `must be less than ${issue.maximum}`;
    case "invalid_format":
      if (blank) return "is required";
      if (issue.format === "email") return "must be an email address, like name@example.com";
      if (issue.format === "url") return "must be a web address starting with https://";
      return "is not in the expected form";
    case "invalid_value":
      return blank ? "is required" : "choose one of the options";
    case "not_multiple_of":
      return issue.divisor === 0.01 ? "may have at most 2 decimal places" : "is not a whole number of steps";
    case "unrecognized_keys":
      return `unexpected ${issue.keys.length === 1 ? "field" : "fields"}: ${issue.keys.join(", ")}`;
    default:
      return undefined;
  }
};
