import js from "@eslint/js";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// ESLint for the whole tree: JavaScript's and typescript-eslint's recommended rules everywhere, React's and the
// hooks' rules for the app's components and the admin extension, the right globals for each runtime.
export default tseslint.config(
  {
    ignores: ["node_modules/", ".tools/", ".cache/", ".bench/", "build/", "build-*/", "var/", "test-results/", "app/types/", "service/generated/"],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // The codebase leaves out fields by destructuring them into `_name` (`const { email: _email, ...rest } = x`).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  { files: ["**/*.tsx"], ...react.configs.flat.recommended },
  { files: ["**/*.tsx"], ...react.configs.flat["jsx-runtime"] },
  { files: ["**/*.tsx"], ...reactHooks.configs.flat.recommended },
  {
    files: ["**/*.tsx"],
    languageOptions: { globals: { ...globals.browser } },
    settings: { react: { version: "18.3" } },
  },
  {
    // The local admin's browser code, served as is, and the admin extension, which runs in Shopify's admin.
    files: ["devstore/shell/assets/**/*.js", "extensions/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
);
