/**
 * Resources and data sources written in HCL (lib/private/resources-file.ts): blocks told from
 * arguments by the schema, meta-arguments as references, types without a schema left in
 * the JSON, and real Terraform planning the same from main.tf as from cdk.tf.json.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { BlockSchemas } from "../../lib/private/block-schemas";
import { writeHclFiles } from "../../lib/private/hcl-files";
import { RESOURCES_FILE, splitResources } from "../../lib/private/resources-file";
import { planExpressions } from "@coder-cdktf/terraform-harness";

jest.setTimeout(60_000);

const SCHEMAS: BlockSchemas = new Map([
  [
    "resource.thing",
    { block_types: { spec: { block: { block_types: { port: { block: {} } } } } } },
  ],
  ["data.source", {}],
]);

describe("splitResources", () => {
  const { hcl, rest } = splitResources(
    {
      resource: {
        thing: {
          main: {
            "//": { metadata: { path: "stack/main" } },
            labels: { "app.kubernetes.io/name": "x", "k-${var.k}": "${var.v}" },
            lifecycle: {
              ignore_changes: ["labels"],
              replace_triggered_by: ["${terraform_data.r}"],
            },
            depends_on: ["data.source.one"],
            count: "${var.n}",
            provider: "thing.alias",
            spec: {
              replicas: "1",
              port: [{ number: 80 }, { number: 443 }],
              dynamic: {
                port: {
                  for_each: "${var.ports}",
                  iterator: "p",
                  content: { number: "${p.value}" },
                },
              },
            },
          },
        },
        unknown_type: { kept: { a: 1 } },
      },
      data: { source: { one: { filter: { name: "x" } } } },
      output: { o: { value: "${thing.main}" } },
    },
    SCHEMAS,
  );

  it("writes blocks as blocks and object arguments as objects, meta-arguments first", () => {
    expect(hcl).toContain(
      [
        'resource "thing" "main" {',
        "  count      = var.n",
        "  provider   = thing.alias",
        "  depends_on = [data.source.one]",
        "  labels = {",
        '    "app.kubernetes.io/name" = "x"',
        '    "k-${var.k}"             = var.v',
        "  }",
        "",
        "  spec {",
        '    replicas = "1"',
        "",
        "    port {",
        "      number = 80",
        "    }",
        "",
        "    port {",
        "      number = 443",
        "    }",
        "",
        '    dynamic "port" {',
        "      for_each = var.ports",
        "      iterator = p",
        "",
        "      content {",
        "        number = p.value",
        "      }",
        "    }",
        "  }",
        "",
        "  lifecycle {",
        "    ignore_changes       = [labels]",
        "    replace_triggered_by = [terraform_data.r]",
        "  }",
        "}",
      ].join("\n"),
    );
    // Without a schema entry, `filter` is an argument.
    expect(hcl).toContain('data "source" "one" {\n  filter = {\n    "name" = "x"\n  }\n}');
    expect(hcl).not.toContain("metadata");
  });

  it("leaves types without a schema, and everything but resources and data, in the JSON", () => {
    expect(rest).toEqual({
      resource: { unknown_type: { kept: { a: 1 } } },
      output: { o: { value: "${thing.main}" } },
    });
  });

  it("fails naming the place when a block is not an object or a reference is not one", () => {
    expect(() =>
      splitResources({ resource: { thing: { a: { spec: "${var.spec}" } } } }, SCHEMAS),
    ).toThrow('thing.a.spec[0]: expected an object, got "${var.spec}"');
    expect(() =>
      splitResources({ resource: { thing: { a: { depends_on: ["not a ref"] } } } }, SCHEMAS),
    ).toThrow('thing.a.depends_on[0]: "not a ref" is not a reference');
  });
});

describe("writeHclFiles: resources", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const stackDir = (config: Record<string, unknown>): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "resources-file-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "cdk.tf.json"), JSON.stringify(config, null, 2));
    return dir;
  };

  it("plans the same from main.tf as from cdk.tf.json, and removes a stale main.tf", async () => {
    const config = {
      variable: { n: { type: "number" } },
      resource: {
        terraform_data: {
          a: { count: "${var.n}", input: { x: "${var.n * 2}", "y-${var.n}": ['q"uote'] } },
          b: { depends_on: ["terraform_data.a"], input: "b-${length(terraform_data.a)}" },
        },
      },
      output: {
        a: { value: "${terraform_data.a[*].input}" },
        b: { value: "${terraform_data.b.input}" },
      },
    };
    const inJson = await planExpressions(stackDir(config), { n: 2 });
    const dir = stackDir(config);
    expect(writeHclFiles(dir)).toEqual(config);
    expect(fs.readFileSync(path.join(dir, RESOURCES_FILE), "utf8")).toContain(
      'resource "terraform_data" "b" {\n  depends_on = [terraform_data.a]\n  input      = "b-${length(terraform_data.a)}"\n}',
    );
    const inHcl = await planExpressions(dir, { n: 2 });
    expect(inJson.values).toEqual({
      a: [
        { x: 4, "y-2": ['q"uote'] },
        { x: 4, "y-2": ['q"uote'] },
      ],
      b: "b-2",
    });
    expect(inHcl.values).toEqual(inJson.values);

    // A second synth into the same folder without resources leaves no main.tf behind.
    fs.writeFileSync(
      path.join(dir, "cdk.tf.json"),
      JSON.stringify({ output: { x: { value: 1 } } }),
    );
    writeHclFiles(dir);
    expect(fs.existsSync(path.join(dir, RESOURCES_FILE))).toBe(false);
  });
});
