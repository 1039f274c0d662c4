/**
 * How tall an order's table of every rate will be, known before its rates are read. The rates page reads a
 * shipment's rates only when its order is unfolded (a page of 50 orders carries the picked rates alone), and keeps
 * that space while they load, so nothing below moves when the table arrives (a layout shift a second after a click
 * counts against the page). Cells wrap within a width (WrappingText), so a row is one, two or three lines tall: the
 * loader, which has every rate in hand, measures each row's text with the metrics of a UI sans-serif font and sends
 * the table's height with the page. Pure.
 */

/** The widest each wrapping column of the rates table grows before its text wraps, in CSS px. */
export const RATES_TABLE_COLUMNS = { carrier: 110, service: 140, speed: 110, surcharges: 160 } as const;

/** The width the "Expired" badge takes beside a service's name. */
const EXPIRED_BADGE_PX = 64;

/** Polaris' body text: 13 px on 20 px lines; a table row of increased density adds 17 px of padding and border. */
const FONT_PX = 13;
const LINE_PX = 20;
const ROW_PADDING_PX = 17;

/** The heading row and a one-line row are this tall. */
export const RATES_ROW_PX = LINE_PX + ROW_PADDING_PX;

/**
 * Advance widths in thousandths of an em of the metric-compatible UI sans-serifs (Arial, Liberation Sans,
 * Helvetica: what Chromium on Linux sets Polaris' font stack in, measured there), raised by a tenth for Inter and
 * the system faces of macOS and Windows, which set a little wider. A character not listed is
 * taken as wide as an uppercase letter, so an estimate errs tall: a row reserved one line too tall leaves a
 * gap below the table, one reserved too short moves the page.
 */
const WIDTHS: Record<string, number> = {
  ...spread("ijl", 222),
  ...spread(" ft.,:;!'/|[]I", 278),
  ...spread("r()-`", 333),
  ...spread("cksvxyzJ", 500),
  ...spread("abdeghnopqu0123456789$#_?L–", 556),
  ...spread("FTZ", 611),
  ...spread("ABEKPSVXY&", 667),
  ...spread("wCDHNRU", 722),
  ...spread("GOQ", 778),
  ...spread("mM", 833),
  ...spread("W%", 944),
};
function spread(characters: string, width: number): Record<string, number> {
  return Object.fromEntries([...characters].map((character) => [character, width]));
}

function textWidth(text: string): number {
  let thousandths = 0;
  for (const character of text) thousandths += WIDTHS[character] ?? 722;
  return (thousandths * 1.1 * FONT_PX) / 1000;
}

/** How many lines `text` takes wrapped at spaces within `maxWidth` px (a word longer than the width breaks on its own line). */
export function wrappedLines(text: string, maxWidth: number): number {
  const space = textWidth(" ");
  let lines = 1;
  let used = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const width = textWidth(word);
    if (used > 0 && used + space + width > maxWidth) {
      lines += 1;
      used = 0;
    }
    if (width > maxWidth) {
      // An unbreakable word wider than the column overflows it rather than wrapping mid-word: one line.
      used = maxWidth;
      continue;
    }
    used += (used > 0 ? space : 0) + width;
  }
  return lines;
}

/** What one rate shows in the wrapping columns, as the table words it. */
export interface RateRowText {
  carrier: string;
  service: string;
  /** The speed as the table shows it; null when it shows the shop's observed transit, which never wraps. */
  speed: string | null;
  surcharges: string;
  expired: boolean;
}

/** The table's height in px: its heading and each row as tall as its tallest cell. */
export function ratesTableHeight(rows: readonly RateRowText[]): number {
  let height = RATES_ROW_PX;
  for (const row of rows) {
    const lines = Math.max(
      wrappedLines(row.carrier, RATES_TABLE_COLUMNS.carrier),
      wrappedLines(row.service, RATES_TABLE_COLUMNS.service - (row.expired ? EXPIRED_BADGE_PX : 0)),
      row.speed === null ? 1 : wrappedLines(row.speed, RATES_TABLE_COLUMNS.speed),
      wrappedLines(row.surcharges, RATES_TABLE_COLUMNS.surcharges),
    );
    height += lines * LINE_PX + ROW_PADDING_PX;
  }
  return Math.ceil(height);
}
