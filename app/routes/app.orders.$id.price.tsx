import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requestContext } from "../request-context.server";
import { parseOptionsForm } from "../booking/book-request";
import { priceBookingOptions, type OptionsPrice } from "../booking/single-booking.server";

/**
 * What the order's booking page's chosen service costs with the chosen signature and insurance
 * (`?shipmentId&quoteId&signatureOptionCode&insuranceAmount`), read by the page as the merchant changes them.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const form = parseOptionsForm(new URL(request.url).searchParams);
  if (!form.ok) {
    const [field, message] = Object.entries(form.fieldErrors)[0] ?? ["form", "is not valid"];
    return json<OptionsPrice>({ ok: false, message: `${field === "insuranceAmount" ? "Insure for" : field}: ${message}` }, { status: 400 });
  }
  return json<OptionsPrice>(await priceBookingOptions(ctx, form.value));
};
