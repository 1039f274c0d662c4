import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AppProvider as PolarisAppProvider, Badge, BlockStack, Card, InlineStack, Page, Text } from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { z } from "zod";
import prisma from "../db/db.server";
import { processLog } from "../log.server";
import { loadPublicTracking } from "../fulfillment/public-tracking.server";

/**
 * The public tracking page (docs/decisions/004-tracking-urls.md): the link Shopify shows the merchant and the
 * customer for carriers it does not know. No Shopify session: the signed token in the address is the access.
 */

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const meta: MetaFunction = () => [{ title: "Track your parcel" }, { name: "robots", content: "noindex" }];

const Params = z.object({ token: z.string().max(200) });

export const loader = async ({ params }: LoaderFunctionArgs) => {
  const parsed = Params.safeParse(params);
  const tracking = parsed.success ? await loadPublicTracking({ db: prisma, log: processLog() }, parsed.data.token) : ({ kind: "not_found" } as const);
  const status = tracking.kind === "found" ? 200 : tracking.kind === "not_found" ? 404 : 503;
  return json(tracking, { status, headers: { "Cache-Control": "private, max-age=60" } });
};

export default function TrackingPage() {
  const tracking = useLoaderData<typeof loader>();
  return (
    <PolarisAppProvider i18n={polarisTranslations}>
      <Page narrowWidth title="Track your parcel">
        {tracking.kind === "not_found" && (
          <Card>
            <Text as="p">This tracking link is not valid. Check the link in your shipping confirmation, or contact the shop.</Text>
          </Card>
        )}
        {tracking.kind === "unavailable" && (
          <Card>
            <Text as="p">Tracking for {tracking.trackingNumber} is not available right now. Please try again in a few minutes.</Text>
          </Card>
        )}
        {tracking.kind === "found" && (
          <Card>
            <BlockStack gap="400">
              <BlockStack gap="100">
                <Text as="h2" variant="headingMd">
                  {tracking.carrier} · <span data-testid="tracking-number">{tracking.trackingNumber}</span>
                </Text>
                <Text as="p" tone="subdued">
                  Order {tracking.orderName}
                </Text>
              </BlockStack>
              {tracking.events.length === 0 ? (
                <Text as="p">The carrier has not reported this parcel yet. Check back after it has been collected.</Text>
              ) : (
                <BlockStack gap="300">
                  {tracking.events.map((event, index) => (
                    <InlineStack key={`${event.at}-${index}`} gap="300" blockAlign="start" wrap={false}>
                      <div style={{ minWidth: 150 }}>
                        <Text as="span" tone="subdued">
                          {event.at}
                        </Text>
                      </div>
                      <BlockStack gap="100">
                        <InlineStack gap="200">
                          <Badge
                            tone={
                              event.eventStatus === "Delivered"
                                ? "success"
                                : event.eventStatus === "Exception" || event.eventStatus === "Failed Attempt"
                                  ? "critical"
                                  : "info"
                            }
                          >
                            {event.eventStatus}
                          </Badge>
                        </InlineStack>
                        <Text as="p">{event.event}</Text>
                        {event.place && (
                          <Text as="p" tone="subdued">
                            {event.place}
                          </Text>
                        )}
                      </BlockStack>
                    </InlineStack>
                  ))}
                </BlockStack>
              )}
            </BlockStack>
          </Card>
        )}
      </Page>
    </PolarisAppProvider>
  );
}
