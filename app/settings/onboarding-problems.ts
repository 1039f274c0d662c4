import { describeError, NOT_SENT, type ShippingApiError } from "../../shipping-api/client";
import type { FieldErrors } from "../field-errors";
import type { OnboardingProblem } from "./onboarding-form";

/** The Shipping API's answers to onboarding in words, each placed next to the form field it is about. */

const UNREACHABLE_KINDS: ReadonlySet<ShippingApiError["kind"]> = new Set(["network", "timeout", "server_error", "rate_limited"]);

function unreachable(error: ShippingApiError): OnboardingProblem {
  return {
    formError: `The Shipping API could not be reached, so nothing was saved. Try again in a few minutes. (${describeError(error)})`,
    fieldErrors: {},
    unavailable: true,
  };
}

/** Why List Services with the merchant's credentials failed, in words. */
export function connectProblem(error: ShippingApiError): OnboardingProblem {
  if (error.kind === "unauthorized") {
    return {
      formError: "The Shipping API did not accept this email and password. Check them and try again; nothing was saved.",
      fieldErrors: { password: "email or password not accepted" },
    };
  }
  if (error.kind === "forbidden" || error.kind === "not_found" || (error.kind === "invalid_request" && error.status === NOT_SENT)) {
    return {
      formError: "This customer id does not belong to the account you signed in with; nothing was saved.",
      fieldErrors: { customerId: "not the customer id of this email's account" },
    };
  }
  if (UNREACHABLE_KINDS.has(error.kind)) return unreachable(error);
  return { formError: `The account could not be checked, so nothing was saved: ${describeError(error)}`, fieldErrors: {} };
}

/** Create Customer's request fields, as the form names them. */
function formField(path: readonly PropertyKey[]): string | null {
  const [head, field] = path;
  if (head === "mailingAddress" || head === "billingAddress" || head === "prepaySettings") return typeof field === "string" ? field : null;
  if (head === "email" || head === "password") return head;
  return null;
}

/** `mailingAddress.zip must not be empty`, `email: Invalid email` → the path and the message. */
const SERVICE_MESSAGE = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*)(?::\s*|\s+)(.+)$/;

function serviceFieldErrors(message: string): FieldErrors | null {
  const errors: FieldErrors = {};
  for (const part of message.split("; ")) {
    const match = SERVICE_MESSAGE.exec(part.trim());
    const field = match?.[1] ? formField(match[1].split(".")) : null;
    if (!field || !match?.[2]) return null;
    errors[field] ??= match[2];
  }
  return errors;
}

/** Why Create Customer failed, placed on the form's fields where the answer names one. */
export function createProblem(error: ShippingApiError): OnboardingProblem {
  if (error.kind === "conflict") {
    return {
      formError: null,
      fieldErrors: { email: "a Shipping API account with this email already exists: connect it instead, or use another email" },
    };
  }
  if (error.kind === "invalid_request" && error.status === NOT_SENT && error.issues) {
    const errors: FieldErrors = {};
    for (const issue of error.issues) {
      const field = formField(issue.path);
      if (field) errors[field] ??= issue.message;
    }
    if (Object.keys(errors).length > 0) return { formError: null, fieldErrors: errors };
  }
  if (error.kind === "invalid_request" && error.status !== NOT_SENT) {
    const errors = serviceFieldErrors(error.message);
    if (errors) return { formError: null, fieldErrors: errors };
  }
  if (error.kind === "unauthorized" || error.kind === "forbidden") {
    return {
      formError:
        "The Shipping API refused the app's partner key, so accounts cannot be created right now. Connect an existing account, or ask the app's administrator to check SHIPPING_API_PARTNER_KEY.",
      fieldErrors: {},
    };
  }
  if (UNREACHABLE_KINDS.has(error.kind)) return unreachable(error);
  return { formError: `The account was not created: ${describeError(error)}`, fieldErrors: {} };
}
