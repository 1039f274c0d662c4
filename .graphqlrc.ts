import { ApiType, shopifyApiProject } from "@shopify/api-codegen-preset";

// Codegen runs offline: the preset reads app/types/admin-2026-10.schema.json, which
// scripts/extract-admin-schema.mjs writes from the real Admin schema shipped in schema/.
export default {
  schema: "https://shopify.dev/admin-graphql-direct-proxy/2026-10",
  documents: ["./app/**/*.{js,ts,jsx,tsx}"],
  projects: {
    default: shopifyApiProject({
      apiType: ApiType.Admin,
      apiVersion: "2026-10",
      documents: ["./app/**/*.{js,ts,jsx,tsx}"],
      outputDir: "./app/types",
    }),
  },
};
