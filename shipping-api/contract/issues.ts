import type { z } from "zod";

/** Renders an issue path as `shipments[3].receiver.state`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

/**
 * One-line description of every issue of a zod error, each naming its field path, e.g.
 * `shipments[3].receiver.state: must be a two-letter code for US and CA`. Used for the
 * service's 400 bodies and the client's local validation errors.
 */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join("; ");
}
