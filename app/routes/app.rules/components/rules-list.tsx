import { Link } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, Divider, InlineStack, Text } from "@shopify/polaris";
import type { SerializeFrom } from "@remix-run/node";
import type { RuleRow, RulesPage } from "../../../automation/rules-page.server";
import { plural } from "../../../plural";

/** The rules in order, each with its conditions, what it does and how many open orders it matches; the shop-wide rule last. */
export function RulesList({
  page,
  busy,
  onEdit,
  onMove,
  onDelete,
}: {
  page: SerializeFrom<RulesPage>;
  busy: boolean;
  onEdit: (rule: SerializeFrom<RuleRow>) => void;
  onMove: (id: string, to: "up" | "down") => void;
  onDelete: (id: string) => void;
}) {
  return (
    <Card padding="0">
      <Box padding="400">
        <Text as="h2" variant="headingMd">
          Your rules, in order
        </Text>
      </Box>
      <Divider />
      {page.rules.length === 0 && (
        <Box padding="400">
          <Text as="p" tone="subdued">
            <span data-testid="rules-empty">
              No rules yet: every order gets the shop-wide rule. Add a rule first, for example “Heavy to EU: the cheapest of Meridian Express”.
            </span>
          </Text>
        </Box>
      )}
      <ol style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Shipping rules">
        {page.rules.map((rule, index) => (
          <li key={rule.id} data-testid="rule-row" data-rule-name={rule.name}>
            <Box padding="400" borderBlockEndWidth="025" borderColor="border">
              <InlineStack align="space-between" blockAlign="start" gap="400" wrap={false}>
                <BlockStack gap="100">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h3" variant="headingSm">
                      {index + 1}. {rule.name}
                    </Text>
                    <Badge tone={rule.matches > 0 ? "info" : undefined}>{`Matches ${rule.matches} of ${plural(page.previewed, "open order")}`}</Badge>
                  </InlineStack>
                  <Text as="p">
                    <Text as="span" fontWeight="semibold">
                      When:
                    </Text>{" "}
                    {rule.when}
                  </Text>
                  <Text as="p">
                    <Text as="span" fontWeight="semibold">
                      Does:
                    </Text>{" "}
                    {rule.does}
                  </Text>
                </BlockStack>
                <InlineStack gap="200" wrap={false}>
                  <Button disabled={busy || index === 0} onClick={() => onMove(rule.id, "up")} accessibilityLabel={`Move ${rule.name} up`}>
                    Up
                  </Button>
                  <Button
                    disabled={busy || index === page.rules.length - 1}
                    onClick={() => onMove(rule.id, "down")}
                    accessibilityLabel={`Move ${rule.name} down`}
                  >
                    Down
                  </Button>
                  <Button onClick={() => onEdit(rule)} accessibilityLabel={`Edit ${rule.name}`}>
                    Edit
                  </Button>
                  <Button tone="critical" disabled={busy} onClick={() => onDelete(rule.id)} accessibilityLabel={`Delete ${rule.name}`}>
                    Delete
                  </Button>
                </InlineStack>
              </InlineStack>
            </Box>
          </li>
        ))}
        <li data-testid="shop-rule-row">
          <Box padding="400">
            <BlockStack gap="100">
              <Text as="h3" variant="headingSm">
                {page.rules.length + 1}. Shop-wide rule (every other order)
              </Text>
              <Text as="p" tone="subdued">
                {page.shopRule}. Change it in <Link to="/app/settings">Settings</Link>.
              </Text>
            </BlockStack>
          </Box>
        </li>
      </ol>
    </Card>
  );
}
