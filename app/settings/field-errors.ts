import { formatIssuePath } from "../../shipping-api/contract";

/**
 * Problems with a submitted form, keyed by the field's path as the Shipping API writes it
 * (`sender.state`, `boxes[1].length`), so the page can show each message next to its field.
 */
export type FieldErrors = Record<string, string>;

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

/** Adds `more` to `errors`, keeping a message already there for the same field. */
export function mergeFieldErrors(errors: FieldErrors, more: FieldErrors): FieldErrors {
  for (const [key, message] of Object.entries(more)) errors[key] ??= message;
  return errors;
}
