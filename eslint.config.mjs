// typescript-eslint over the project's own TypeScript (not the generated bindings).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import layers from "./eslint/layers.mjs";

export default tseslint.config(
  {
    ignores: [
      ".gen/**",
      "build/**",
      "packages/*/build/**",
      "cdktf.out/**",
      "node_modules/**",
      "coverage/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        __dirname: "readonly",
        __filename: "readonly",
        Buffer: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setImmediate: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests read Terraform's JSON (plans, state), whose shape is the schema's, not ours.
    files: ["test/**/*.ts", "packages/*/test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.object.name='Testing'][callee.property.name='app'][arguments.length=0]",
          message:
            "Testing.app() makes a cdktf.outdir.* folder in the temp dir that nothing removes: use testApp() from test/support/test-app.",
        },
      ],
    },
  },
  {
    // The layer table of docs/architecture.md (eslint/layers.mjs); test/ may import anything.
    files: ["**/*.ts", "scripts/**/*.js"],
    ignores: ["test/**", "packages/*/test/**", "packages/*/jest.config.js"],
    plugins: { layers },
    rules: { "layers/layering": "error" },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
);
