import type { ActionFunctionArgs } from "@remix-run/node";
import { redactCustomer, redactShop, reportCustomerData } from "../compliance.server";
import prisma from "../db.server";
import { handleWebhookPayload, receiveWebhook, unexpectedTopic } from "../webhooks.server";

/** customers/data_request, customers/redact, shop/redact (shopify.app.toml compliance topics). */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await receiveWebhook(request);
  return handleWebhookPayload(async () => {
    switch (topic) {
      case "CUSTOMERS_DATA_REQUEST":
        console.info(JSON.stringify({ msg: "customer data report", shop, report: await reportCustomerData(prisma, shop, payload) }));
        break;
      case "CUSTOMERS_REDACT":
        console.info(JSON.stringify({ msg: "customer redacted", shop, ordersErased: await redactCustomer(prisma, shop, payload) }));
        break;
      case "SHOP_REDACT":
        await redactShop(prisma, shop);
        console.info(JSON.stringify({ msg: "shop redacted", shop }));
        break;
      default:
        return unexpectedTopic(topic);
    }
    return new Response();
  });
};
