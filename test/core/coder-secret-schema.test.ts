/**
 * The vendored schema of `data.coder_secret` (schemas/coder.schema.json, from which
 * scripts/gen-providers.js generates the binding and the harness's mock serves it) says what
 * the coder provider's documentation says of it (terraform-provider-coder v2.17.0,
 * docs/data-sources/secret.md, "Schema"; the data source came in v2.16.0).
 */
import * as fs from "fs";
import * as path from "path";
import { DataCoderSecret } from "../../.gen/providers/coder/data-coder-secret";

/** The documentation's attribute list: section, type, and whether it is marked Sensitive. */
const DOCUMENTED: Record<
  string,
  { section: "Required" | "Optional" | "Read-Only"; sensitive?: true }
> = {
  help_message: { section: "Required" },
  env: { section: "Optional" },
  file: { section: "Optional" },
  id: { section: "Read-Only" },
  value: { section: "Read-Only", sensitive: true },
};

interface AttributeSchema {
  type: string;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
}

const schema = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../schemas/coder.schema.json"), "utf8"),
);
const secret = schema.provider_schemas["registry.terraform.io/coder/coder"].data_source_schemas
  .coder_secret as { block: { attributes: Record<string, AttributeSchema>; block_types?: object } };

it("has exactly the documented attributes, all strings, and no nested blocks", () => {
  expect(Object.keys(secret.block.attributes).sort()).toEqual(Object.keys(DOCUMENTED).sort());
  for (const attribute of Object.values(secret.block.attributes)) {
    expect(attribute.type).toBe("string");
  }
  expect(secret.block.block_types ?? {}).toEqual({});
});

it.each(Object.entries(DOCUMENTED))("%s is %j", (name, documented) => {
  const attribute = secret.block.attributes[name];
  // The SDK reports Read-Only as computed (id is also optional, as for every SDKv2 id).
  expect(attribute.required === true).toBe(documented.section === "Required");
  if (documented.section === "Optional") expect(attribute).toMatchObject({ optional: true });
  if (documented.section === "Read-Only") {
    expect(attribute.computed).toBe(true);
    expect(attribute.required).toBeUndefined();
  }
  expect(attribute.sensitive === true).toBe(documented.sensitive === true);
});

it("is what the generated binding was made from: it takes env, file and help_message", () => {
  const keys = Object.getOwnPropertyNames(DataCoderSecret.prototype);
  for (const name of ["env", "file", "helpMessage", "value", "id"]) {
    expect(keys).toContain(name);
  }
  expect(DataCoderSecret.tfResourceType).toBe("coder_secret");
});
