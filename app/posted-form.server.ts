import { json } from "@remix-run/node";

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * Reads what is left of a request body and throws it away. A refusal sent with the body unread leaves the
 * connection stuck behind it (the app's server then resets it, and the client's next request on it fails):
 * reading it keeps the connection usable, at no memory cost.
 */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  const reader = request.body.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // The client went away: nothing left to keep usable.
  }
}

/**
 * The form a page posted. A body that is not a form (another content type, a multipart body that does not
 * parse) is the sender's mistake: it is answered 415 or 400 with a sentence saying how to send it, never a 500,
 * and the action has done nothing yet.
 */
export async function readPostedForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.test(type)) {
    await discardBody(request);
    throw json(
      { error: `Send this form as application/x-www-form-urlencoded or multipart/form-data, not ${type.slice(0, 100) || "without a content type"}.` },
      { status: 415 },
    );
  }
  try {
    return await request.formData();
  } catch {
    throw json({ error: "The form could not be read: its body does not match its content type. Reload the page and try again." }, { status: 400 });
  }
}
