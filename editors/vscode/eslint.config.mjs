import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "out/", "node_modules/", "*.vsix"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["src/**/*.ts"],
    rules: {
      curly: "error",
      eqeqeq: "error",
      "no-console": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
    },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // node:test's describe/it return promises the runner itself awaits.
    files: ["src/test/**/*.ts"],
    rules: { "@typescript-eslint/no-floating-promises": "off" },
  },
  {
    // The KeSi panel's page script runs in the webview (a browser, VS Code's webview API).
    files: ["media/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: { acquireVsCodeApi: "readonly", document: "readonly", window: "readonly" },
    },
  },
  {
    files: ["*.mjs"],
    languageOptions: { globals: { process: "readonly" } },
  },
);
