import { Form, useNavigation, useSearchParams } from "@remix-run/react";
import { Button, Card, InlineStack, TextField } from "@shopify/polaris";
import { useState } from "react";

/** Search Shipments on the Shipping API: the keyword goes in the page's address (`q`). */
export function SearchBox() {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [keyword, setKeyword] = useState(params.get("q") ?? "");
  return (
    <Card>
      <Form method="get">
        <InlineStack gap="300" blockAlign="end">
          <div style={{ minWidth: 320 }}>
            <TextField
              label="Search shipments"
              name="q"
              value={keyword}
              onChange={setKeyword}
              placeholder="Order number, name, tracking or book number"
              autoComplete="off"
            />
          </div>
          <Button submit loading={navigation.state === "loading" && navigation.location?.pathname === "/app/shipments"}>
            Search
          </Button>
        </InlineStack>
      </Form>
    </Card>
  );
}
