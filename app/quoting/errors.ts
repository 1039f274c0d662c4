/** Typed errors of quoting, each with a message that says what happened and what to do next. */

/** Rates depend on where parcels leave from: without a sender address nothing can be quoted. */
export class SenderMissingError extends Error {
  override name = "SenderMissingError";
  constructor() {
    super("Add your sender address in Settings before quoting: rates depend on where your parcels ship from.");
  }
}

/** The Shipping API could not list the account's services, so no order can be checked or quoted. */
export class QuotingUnavailableError extends Error {
  override name = "QuotingUnavailableError";
}

/** Input the merchant (or a caller) sent that cannot be acted on; `status` is the HTTP status to answer. */
export class QuotingInputError extends Error {
  override name = "QuotingInputError";
  constructor(
    readonly status: 400 | 404 | 409,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }

  /** The refusal a form shows: the message, on the field it names. */
  refusal(): { ok: false; message: string; fieldErrors: Record<string, string> } {
    return { ok: false, message: this.message, fieldErrors: { [this.field]: this.message } };
  }
}
