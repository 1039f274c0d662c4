import { expect, it } from "vitest";
import type { z } from "zod";
import { formatIssuePath, formatIssues } from "../../shipping-api/contract";

/**
 * The contract's table tests (shipping-api/contract/*.test.ts): rows of documented payloads each schema must
 * accept, and rows of payloads it must refuse with an issue naming the field.
 */

export type ShapeRow = [name: string, schema: z.ZodType, input: unknown];
export type RejectionRow = [rule: string, schema: z.ZodType, input: unknown, path: string];

/** Formatted paths of every issue the schema raises for the input (empty when it parses). */
export function issuePaths(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => formatIssuePath(issue.path));
}

export function itAcceptsEach(rows: ShapeRow[]): void {
  it.each<ShapeRow>(rows)("GIVEN %s WHEN parsed THEN it is accepted", (_name, schema, input) => {
    const result = schema.safeParse(input);
    expect(result.success ? "" : formatIssues(result.error)).toBe("");
  });
}

export function itRejectsEach(rows: RejectionRow[]): void {
  it.each<RejectionRow>(rows)("GIVEN %s WHEN parsed THEN it is rejected with an issue naming the field", (_rule, schema, input, path) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(issuePaths(schema, input)).toContain(path);
    if (!result.success) expect(formatIssues(result.error)).toContain(`${path}: `);
  });
}
