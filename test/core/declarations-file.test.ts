/**
 * Variables, module calls and checks written to main.tf (lib/private/declarations-file.ts):
 * each argument keeps its kind (type expression, literal, expression), an operator's text
 * with quotes, backslashes, newlines and `${` comes back byte for byte through real
 * Terraform, the file is `terraform fmt`-clean, and the plan is the one cdk.tf.json gives.
 */
import { spawnSync } from "node:child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { TerraformError } from "@coder-cdktf/terraform-harness/src/terraform-cli";
import { terraformEnvironment } from "@coder-cdktf/terraform-harness/src/terraform-cli";
import type { BlockSchemas } from "../../lib/private/block-schemas";
import { splitDeclarations } from "../../lib/private/declarations-file";
import { writeHclFiles } from "../../lib/private/hcl-files";
import { renderHclFile } from "../../lib/private/hcl-writer";
import { RESOURCES_FILE } from "../../lib/private/resources-file";
import { stackConfiguration } from "../../lib/private/stack-configuration";
import { terraformFmtCheck } from "../support/terraform-fmt";

jest.setTimeout(60_000);

/** An operator's text at its worst: quotes, a backslash, newlines, a tab, `${`, `%{`, `$${`. */
const HOSTILE = 'say "hi" \\ to ${var.secret} and %{ if true }x%{ endif }\n\tthen $${kept}\nEOT\n';

describe("splitDeclarations", () => {
  const schemas: BlockSchemas = new Map([["data.probe", {}]]);
  const { variables, calls, rest } = splitDeclarations(
    {
      variable: {
        size: {
          "//": { metadata: { path: "stack/size" } },
          default: { a: 1 },
          type: "map(number)",
          description: "Sizes ${by} name",
          nullable: false,
          validation: [{ condition: "${length(var.size) > 0}", error_message: "size: ${1 + 1}" }],
        },
      },
      module: {
        web: {
          "//": { metadata: {} },
          agent_id: "${coder_agent.main.id}",
          count: "${var.n}",
          depends_on: ["terraform_data.a"],
          version: "1.2.3",
          source: "registry.example/x/y",
        },
      },
      check: {
        probed: {
          data: { probe: { p: { url: "${var.url}" } } },
          assert: [{ condition: "${data.probe.p.ok}", error_message: "not ok" }],
        },
        unschemed: { data: { other: { o: {} } }, assert: [] },
      },
      output: { o: { value: 1 } },
    },
    schemas,
  );
  const text = renderHclFile([...variables, ...calls], "template");

  it("writes the type bare, literals escaped, expressions as expressions, validation last", () => {
    expect(text).toContain(
      [
        'variable "size" {',
        "  type        = map(number)",
        '  description = "Sizes $${by} name"',
        "  default = {",
        '    "a" = 1',
        "  }",
        "  nullable = false",
        "",
        "  validation {",
        "    condition     = length(var.size) > 0",
        '    error_message = "size: ${1 + 1}"',
        "  }",
        "}",
      ].join("\n"),
    );
  });

  it("writes a module's source and version first, its references bare, no metadata", () => {
    expect(text).toContain(
      [
        'module "web" {',
        '  source     = "registry.example/x/y"',
        '  version    = "1.2.3"',
        "  count      = var.n",
        "  depends_on = [terraform_data.a]",
        "  agent_id   = coder_agent.main.id",
        "}",
      ].join("\n"),
    );
  });

  it("writes a check's scoped data source from its schema; one without a schema stays in JSON", () => {
    expect(text).toContain('check "probed" {\n  data "probe" "p" {\n    url = var.url\n  }');
    expect(text).toContain(
      '  assert {\n    condition     = data.probe.p.ok\n    error_message = "not ok"\n  }',
    );
    expect(rest).toEqual({
      check: { unschemed: { data: { other: { o: {} } }, assert: [] } },
      output: { o: { value: 1 } },
    });
  });

  it("refuses an argument it does not know rather than drop it", () => {
    expect(() => splitDeclarations({ variable: { v: { typo: 1 } } }, schemas)).toThrow(
      "var.v: cannot write typo in HCL",
    );
  });
});

describe("writeHclFiles: declarations through real Terraform", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const stackDir = (config: Record<string, unknown>): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "declarations-file-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "cdk.tf.json"), JSON.stringify(config, null, 2));
    return dir;
  };
  const config = {
    variable: {
      note: {
        type: "string",
        description: HOSTILE,
        default: HOSTILE,
        sensitive: false,
        validation: [
          {
            condition: '${var.note != "refused"}',
            // In JSON a template: the operator's text as the construct escapes it, and a value.
            error_message: 'bad "note" \\ $${x} %%{y}\n${upper(var.note)} too',
          },
        ],
      },
    },
    module: { echo: { source: "./echo", text: "${var.note}" } },
    check: {
      short: {
        assert: [{ condition: "${length(var.note) < 5}", error_message: "long: ${var.note}" }],
      },
    },
    output: { note: { value: "${module.echo.text}" } },
  };
  const withModule = (dir: string): string => {
    fs.mkdirSync(path.join(dir, "echo"));
    fs.writeFileSync(
      path.join(dir, "echo", "main.tf"),
      'variable "text" {\n  type = string\n}\n\noutput "text" {\n  value = var.text\n}\n',
    );
    return dir;
  };

  it("round-trips a hostile description, default and error_message: fmt-clean, valid, the same plan", async () => {
    const inJson = withModule(stackDir(config));
    const inHcl = withModule(stackDir(config));
    expect(writeHclFiles(inHcl)).toEqual(config);
    expect(JSON.parse(fs.readFileSync(path.join(inHcl, "cdk.tf.json"), "utf8"))).toEqual({
      output: config.output,
    });
    const main = fs.readFileSync(path.join(inHcl, RESOURCES_FILE), "utf8");
    expect(terraformFmtCheck(main)).toEqual({ output: "", status: 0 });
    const terraform = (...args: string[]) =>
      spawnSync("terraform", args, { cwd: inHcl, encoding: "utf8", env: terraformEnvironment() });
    // The local module only: init reaches nothing beyond the folder.
    expect(terraform("init", "-backend=false", "-input=false", "-no-color").status).toBe(0);
    const validate = terraform("validate", "-no-color");
    expect({ status: validate.status, out: validate.stdout + validate.stderr }).toEqual({
      status: 0,
      out: expect.stringContaining("The configuration is valid"),
    });

    const [a, b] = [await planExpressions(inJson), await planExpressions(inHcl)];
    expect(b.values).toEqual({ note: HOSTILE });
    expect(a.values).toEqual(b.values);
    const described = (plan: typeof a) =>
      (plan.showJson.configuration as { root_module: { variables: unknown } }).root_module
        .variables;
    expect(described(b)).toEqual({ note: { default: HOSTILE, description: HOSTILE } });
    expect(described(a)).toEqual(described(b));
    // (Terraform trims the message's last newline.)
    expect(b.checkFailures).toEqual([`long: ${HOSTILE}`.trimEnd()]);
    expect(a.checkFailures).toEqual(b.checkFailures);

    const refused = async (dir: string) => {
      const error = await planExpressions(dir, { note: "refused" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TerraformError);
      // The message, without the position of the rule (a line of main.tf or of cdk.tf.json).
      return (error as TerraformError).diagnostics.map((d) =>
        d.detail.replace(/\nThis was checked by .*$/, "").trimEnd(),
      );
    };
    const message = 'bad "note" \\ ${x} %{y}\nREFUSED too';
    expect(await refused(inHcl)).toEqual([message]);
    expect(await refused(inJson)).toEqual(await refused(inHcl));
  });

  it("gives the folder's whole configuration back to the tools that read a folder", () => {
    const dir = withModule(stackDir(config));
    writeHclFiles(dir);
    expect(stackConfiguration(dir)).toEqual(config);
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "declarations-copy-"));
    dirs.push(copy);
    fs.cpSync(dir, copy, { recursive: true });
    expect(() => stackConfiguration(copy)).toThrow(/variables, modules or checks are in main.tf/);
  });
});
