import { readFileSync } from "node:fs";
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";

// Module boundaries (docs/architecture.md): another domain is reached only through its index (`@/lib/<domain>`);
// pages and components never touch the database; nothing in lib/ depends on the app that serves it.
// A domain's `schemas.ts` is the exception: its zod shapes are client-safe (no database, no Node APIs), so client
// components import it directly to validate forms with the same schemas the server uses.
const throughIndex = {
  group: ["@/lib/*/**", "**/lib/*/**", "!**/lib/db/generated/**", "!@/lib/*/schemas"],
  message: "Import another domain through its index: @/lib/<domain> (or its client-safe @/lib/<domain>/schemas).",
};
const noApp = { group: ["@/app", "@/app/**", "**/app/**"], message: "lib/ never imports app/: the app depends on lib, not the reverse." };
const noDatabase = { group: ["@/lib/db", "@/lib/db/**"], message: "Pages and components reach data through domain functions, never lib/db." };
const outOfDomain = (depth) => ({
  group: [`${"../".repeat(depth)}*`],
  message: "Reach another domain through @/lib/<domain>, not a relative path out of this one.",
});

// The platform's own modules run from a production install (`npm ci --omit=dev`, checked in CI by
// scripts/check-production-install.sh), so they never load a dev dependency; types are erased and may come from one.
const devDependencies = Object.keys(JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).devDependencies);
const runtimeFiles = ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "proxy.ts", "scripts/*.ts"];
const noDevDependencies = {
  files: runtimeFiles,
  ignores: ["**/*.test.ts"],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            group: devDependencies.flatMap((name) => [name, `${name}/*`]),
            allowTypeImports: true,
            message: "A dev dependency is absent from production installs: test-only code lives in test/.",
          },
        ],
      },
    ],
  },
};

// Process-wide state lives in lib/process-state.ts only: the platform's modules are loaded more than once in one
// process (the platform server's graph and Next.js's bundles), so a module-level variable, an empty container at
// module level or a property of globalThis would exist once per copy. Constants and lookups built from data are fine.
const moduleLevel = ":matches(Program, ExportNamedDeclaration) > VariableDeclaration";
const emptyContainer = "NewExpression[callee.name=/^(Map|Set|WeakMap|WeakSet|AsyncLocalStorage)$/][arguments.length=0], ArrayExpression[elements.length=0]";
const stateMessage = "Process-wide state is one instance by construction: keep it in processState() (lib/process-state.ts).";
const processWideState = {
  files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "proxy.ts"],
  ignores: ["**/*.test.ts", "lib/process-state.ts"],
  rules: {
    "no-restricted-syntax": [
      "error",
      { selector: `${moduleLevel}[kind='let']`, message: stateMessage },
      { selector: `${moduleLevel} > VariableDeclarator > :matches(${emptyContainer})`, message: stateMessage },
      { selector: `${moduleLevel} > VariableDeclarator > :matches(TSAsExpression, TSSatisfiesExpression) > :matches(${emptyContainer})`, message: stateMessage },
      { selector: "Identifier[name='globalThis']", message: stateMessage },
    ],
  },
};

// No import cycles, at file level: a cycle's modules cannot be loaded or understood one at a time, and evaluation
// order inside it decides what is still undefined. Compositions (the job worker's jobs, the API's dispatch tables)
// import the domains; the domains never import their composition. Type-only imports vanish at build time.
// Test files and browser specs are left out: nothing imports them, so none can be in a cycle, and following their
// imports was most of the rule's time (the rule was two thirds of ESLint's).
const noCycles = {
  files: ["**/*.{ts,tsx}"],
  ignores: ["**/*.test.ts", "**/*.test.tsx", "e2e/**/*.spec.ts"],
  plugins: { "import-x": importX },
  settings: {
    ...importX.flatConfigs.typescript.settings,
    "import-x/resolver-next": [createTypeScriptImportResolver({ project: new URL("./tsconfig.json", import.meta.url).pathname })],
  },
  rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
};

const restrict = (files, patterns) => ({ files, rules: { "no-restricted-imports": ["error", { patterns }] } });

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  { ignores: [".next/**", ".data/**", "lib/db/generated/**", "node_modules/**", "packages/sdk/dist/**", "playwright-report/**", "test-results/**"] },
  restrict(["**/*.{ts,tsx,mjs}"], [throughIndex]),
  restrict(["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"], [throughIndex, noDatabase]),
  restrict(["lib/*.ts"], [throughIndex, noApp]),
  restrict(["lib/*/*.{ts,tsx}"], [throughIndex, noApp, outOfDomain(1)]),
  restrict(["lib/*/*/*.{ts,tsx}"], [throughIndex, noApp, outOfDomain(2)]),
  restrict(["lib/*/*/*/*.{ts,tsx}"], [throughIndex, noApp, outOfDomain(3)]),
  noDevDependencies,
  processWideState,
  noCycles,
];

export default config;
