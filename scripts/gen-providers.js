#!/usr/bin/env node
// Generates the L1 TypeScript bindings for the providers that have no prebuilt
// @cdktf package (coder/coder, deepspacecartel/devcontainer-builder) from the
// schema files vendored in schemas/. Runs offline: the only step of `cdktf get`
// that needs Terraform and the network (fetching the schema) is replaced by
// reading our JSON file. Runs from `npm ci`/`npm install` (the `prepare` hook).
"use strict";
process.env.CHECKPOINT_DISABLE = "1";

const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");

// @cdktf/commons runs `terraform version` on import; a TF_CLI_CONFIG_FILE that
// points at a missing file only makes it print a scary warning.
if (process.env.TF_CLI_CONFIG_FILE && !fs.existsSync(process.env.TF_CLI_CONFIG_FILE)) {
  process.env.TF_CLI_CONFIG_FILE = "/dev/null";
}
const outRoot = path.join(root, ".gen", "providers");

/**
 * One entry per provider. `localName` is the name the provider gets in
 * `required_providers`; Terraform resolves a resource type to the provider whose
 * local name is its prefix, so devcontainer-builder must be `devcontainerbuilder`
 * (otherwise `devcontainerbuilder_build` resolves to hashicorp/devcontainerbuilder).
 */
const PROVIDERS = [
  {
    schema: "schemas/coder.schema.json",
    fqpn: "registry.terraform.io/coder/coder",
    constraint: "coder/coder@>= 2.5.0",
    localName: "coder",
  },
  {
    schema: "schemas/devcontainerbuilder.schema.json",
    fqpn: "registry.terraform.io/deepspacecartel/devcontainer-builder",
    constraint: "deepspacecartel/devcontainer-builder@>= 0.3.0, < 2.0.0",
    localName: "devcontainerbuilder",
  },
];

async function generate(p) {
  // Deep imports: the package index resolves jsii-pacmak at load time, which we
  // do not need (TypeScript only) and do not install.
  const {
    TerraformProviderGenerator,
  } = require("@cdktf/provider-generator/lib/get/generator/provider-generator");
  const { CodeMaker } = require("codemaker");
  const {
    ConstructsMakerProviderTarget,
    TerraformProviderConstraint,
    LANGUAGES,
  } = require("@cdktf/commons");

  const schemaFile = path.join(root, p.schema);
  let schema;
  try {
    schema = JSON.parse(fs.readFileSync(schemaFile, "utf8"));
  } catch (e) {
    throw new Error(`${p.schema}: cannot read provider schema: ${e.message}`, { cause: e });
  }
  if (!schema.provider_schemas || !schema.provider_schemas[p.fqpn]) {
    throw new Error(`${p.schema}: provider_schemas has no entry "${p.fqpn}"`);
  }
  const code = new CodeMaker();
  const constraint = new TerraformProviderConstraint(p.constraint);
  const target = new ConstructsMakerProviderTarget(constraint, LANGUAGES[0]);
  new TerraformProviderGenerator(code, schema).generate(target);
  const tmp = fs.mkdtempSync(path.join(outRoot, ".tmp-"));
  await code.save(tmp);
  return tmp;
}

/**
 * Renames the provider's local name in the generated code (see PROVIDERS) and
 * points its cdktf import at lib/core/cdk.ts.
 */
function rewriteGenerated(dir, from, to) {
  const files = [];
  (function walk(d) {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else if (f.endsWith(".ts")) files.push(f);
    }
  })(dir);
  for (const f of files) {
    const src = fs.readFileSync(f, "utf8");
    const out = src
      .replace(
        new RegExp(
          `(terraformResourceType|providerName|tfResourceType)( =|:) (['"])${from}\\3`,
          "g",
        ),
        `$1$2 $3${to}$3`,
      )
      // Route the bindings' cdktf import through our one cdktf module (lib/core/cdk.ts),
      // so moving to CDK Terrain stays a one-file change.
      .replace(/from 'cdktf';/g, `from '${cdkModuleFrom(f)}';`);
    if (out !== src) fs.writeFileSync(f, out);
  }
}

function cdkModuleFrom(file) {
  const rel = path
    .relative(path.dirname(file), path.join(root, "lib", "core", "cdk"))
    .split(path.sep)
    .join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

async function main() {
  fs.mkdirSync(outRoot, { recursive: true });
  for (const p of PROVIDERS) {
    const tmp = await generate(p);
    // The generator writes providers/<name>/; we keep .gen/providers/<localName>.
    const generatedName = p.fqpn.split("/").pop();
    const dir = path.join(tmp, "providers", generatedName);
    if (!fs.existsSync(dir)) {
      throw new Error(`unexpected generator layout in ${tmp}: no providers/${generatedName}`);
    }
    const dest = path.join(outRoot, p.localName);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(dir, dest);
    rewriteGenerated(dest, generatedName, p.localName);
    fs.rmSync(tmp, { recursive: true, force: true });
    process.stdout.write(`generated ${path.relative(root, dest)} from ${p.schema}\n`);
  }
}

main().catch((e) => {
  process.stderr.write(`gen:providers failed: ${e.stack || e}\n`);
  process.exit(1);
});
