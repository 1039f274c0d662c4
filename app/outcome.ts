/**
 * The one shape of a result whose failure the caller must handle (docs/decisions/038): `ok: true` with what the
 * work produced (`T`), or `ok: false` with `message`, in the merchant's words: what happened and what to do next,
 * and what else the failure carries (`F`). Two names mean the same everywhere:
 * - `fieldErrors` (`FieldErrors`): problems with form input, each shown next to its field; `message` sums them up;
 * - `reason`: a literal, when callers branch on more than one kind of failure (booking's "refused": change
 *   something first; "pending": the outcome is not known yet).
 * What no caller can handle in place (no account, input no form could have sent) is thrown as a typed error
 * instead, and per-item states of bulk work (a batch's booking results, the write-back's per-shipment writes)
 * are progress with shapes of their own. app/architecture.test.ts holds every exported …Outcome and …Result
 * type of app/ to this shape.
 */
export type Outcome<T extends object = object, F extends object = object> = ({ ok: true } & T) | ({ ok: false; message: string } & F);

/**
 * Problems with a submitted form, keyed by the field's path as the Shipping API writes it
 * (`sender.state`, `boxes[1].length`), so the page can show each message next to its field. Built from a
 * validation's issues in the merchant's words by app/settings/field-errors.ts.
 */
export type FieldErrors = Record<string, string>;
