/**
 * The vendored provider schemas (schemas/, schemas/README.md): which release each is, how the
 * newest coder schema was derived from the 2.17.0 one, and what the bindings are generated
 * from. A minor release of the coder provider removed a data source (2.18.0: coder_secret),
 * so the project keeps the oldest and the newest schema it checks templates against.
 */
import * as fs from "fs";
import * as path from "path";
import {
  newestRelease,
  PROVIDER_ADDRESSES,
  VENDORED_RELEASES,
} from "../../lib/constructs/provider-features";
import { releaseSchema } from "../../lib/constructs/provider-releases";
import { projectRoot } from "../../lib/core/project-root";

const root = projectRoot();
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
const coder = (document: any) => document.provider_schemas[PROVIDER_ADDRESSES.coder!];

it("lists every vendored schema file, oldest first per provider, each a provider schema", () => {
  const files = [
    ...fs.readdirSync(path.join(root, "schemas")).map((f) => `schemas/${f}`),
    ...fs.readdirSync(path.join(root, "schemas/releases")).map((f) => `schemas/releases/${f}`),
  ].filter((f) => f.endsWith(".schema.json") && !f.includes("devcontainerbuilder"));
  expect(VENDORED_RELEASES.map((r) => r.file).sort()).toEqual(files.sort());
  for (const release of VENDORED_RELEASES) {
    expect(Object.keys(read(release.file).provider_schemas)).toEqual([
      PROVIDER_ADDRESSES[release.provider],
    ]);
  }
  expect(newestRelease("coder")).toBe("2.19.0");
});

it("has coder 2.19.0 as 2.17.0 without data.coder_secret, the one schema change since (real-world-facts §8)", () => {
  const old = read("schemas/releases/coder-2.17.0.schema.json");
  expect(coder(old).data_source_schemas.coder_secret).toBeDefined();
  delete coder(old).data_source_schemas.coder_secret;
  expect(read("schemas/coder.schema.json")).toEqual(old);
});

it("derives 2.18.0 and 2.19.0 alike, and 2.16.0 with coder_secret but without what came after", () => {
  expect(releaseSchema("coder", "2.18.0")).toEqual(read("schemas/coder.schema.json"));
  expect(coder(releaseSchema("coder", "2.19.0")).data_source_schemas.coder_secret).toBeUndefined();
  const v216 = coder(releaseSchema("coder", "2.16.0"));
  expect(v216.data_source_schemas.coder_secret).toBeDefined();
  const v215 = coder(releaseSchema("coder", "2.15.0"));
  expect(v215.data_source_schemas.coder_secret).toBeUndefined();
  expect(v215.resource_schemas.coder_env.block.attributes.merge_strategy).toBeDefined();
  const v214 = coder(releaseSchema("coder", "2.14.0"));
  expect(v214.resource_schemas.coder_env.block.attributes.merge_strategy).toBeUndefined();
  // A nested block's attribute: prebuilds.scheduling came in 2.6.0.
  const preset = (v: string) =>
    coder(releaseSchema("coder", v)).data_source_schemas.coder_workspace_preset.block.block_types
      .prebuilds.block.block_types;
  expect(preset("2.6.0").scheduling).toBeDefined();
  expect(preset("2.5.0").scheduling).toBeUndefined();
});

it("refuses a release newer than every vendored schema, naming the newest", () => {
  expect(() => releaseSchema("coder", "2.20.0")).toThrow(
    "no schema of coder 2.20.0: the newest vendored release is 2.19.0",
  );
});

it("generates the coder bindings from the newest schema: no coder_secret binding exists", () => {
  const generated = fs.readdirSync(path.join(root, ".gen/providers/coder"));
  expect(generated).toContain("data-coder-workspace");
  expect(generated.filter((f) => f.includes("secret"))).toEqual([]);
});
