// Lint = the architecture's boundaries as rules (STYLE.md): runtime APIs only in src/platform/,
// sandbox/ never imports src/, imports follow the layer order and reach sandbox/ only through its
// entry points (hookbox/layers, scripts/layer-order.js). Plus typescript-eslint's recommended set.
import tseslint from "typescript-eslint";
import { layersPlugin } from "./scripts/layer-order.js";

// node:util is allowed everywhere: pure helpers, no I/O (but every node:* module costs Bun startup
// time: emit's path loads none, see src/platform/bun-lean.ts).
const RUNTIME_MODULES = [
  "node:*",
  "!node:util",
  "bun",
  "bun:*",
  ...[
    "fs",
    "fs/promises",
    "path",
    "os",
    "child_process",
    "net",
    "http",
    "https",
    "dns",
    "url",
    "module",
    "worker_threads",
    "crypto",
    "stream",
    "process",
  ],
];
const runtimeImports = {
  group: RUNTIME_MODULES,
  message: "Runtime APIs belong in src/platform/ (STYLE.md principle 2): take them from the RuntimeHost.",
};
const runtimeGlobals = ["Bun", "Deno", "process", "Buffer", "require", "__dirname", "__filename"].map((name) => ({
  name,
  message: "Runtime globals belong in src/platform/ (STYLE.md principle 2).",
}));

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "test-output/**"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["src/**/*.ts", "src/**/*.tsx", "sandbox/**/*.ts"],
    plugins: { hookbox: layersPlugin },
    rules: { "hookbox/layers": "error" },
  },
  {
    files: ["src/**/*.ts", "src/**/*.tsx"],
    ignores: ["src/platform/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [runtimeImports] }],
      "no-restricted-globals": ["error", ...runtimeGlobals],
    },
  },
  {
    files: ["sandbox/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            runtimeImports,
            {
              group: ["**/src/**", "../src/*", "../../src/*"],
              message: "sandbox/ imports nothing from src/ (STYLE.md principle 3): it is given its host functions.",
            },
          ],
        },
      ],
      "no-restricted-globals": ["error", ...runtimeGlobals],
    },
  },
);
