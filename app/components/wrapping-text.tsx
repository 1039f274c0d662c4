import type { ReactNode } from "react";

/**
 * Text in a table cell that wraps onto more lines instead of widening its column (Polaris' tables keep cells on
 * one line, so one long reason or list of surcharges pushed the table past its card): at most `maxWidth` wide.
 */
export function WrappingText({ children, maxWidth }: { children: ReactNode; maxWidth: number }) {
  return <span style={{ display: "inline-block", whiteSpace: "normal", maxWidth, verticalAlign: "top" }}>{children}</span>;
}
