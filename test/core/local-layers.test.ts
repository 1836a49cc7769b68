/**
 * Locals grouped into layers (lib/private/local-layers.ts): which layer each local lands in
 * (never one that makes a cycle through a resource), references rewritten only inside
 * expressions (script text keeps its bytes), deterministic fmt-clean files, and real
 * Terraform planning the same values from the layered files as from the flat configuration.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { writeHclFiles } from "../../lib/private/hcl-files";
import { templateTraversals } from "../../lib/private/hcl-template";
import {
  localLayers,
  localReference,
  MIN_LAYERED_LOCALS,
  rewriteLocalReferences,
} from "../../lib/private/local-layers";
import { LOCALS_FILE, localNames } from "../../lib/private/locals-file";
import { RESOURCES_FILE } from "../../lib/private/resources-file";
import { terraformFmtCheck } from "../support/terraform-fmt";

jest.setTimeout(60_000);

/** Script text that mentions locals without reading them (a coder_script body, say). */
const SCRIPT = "#!/bin/sh\necho local.b $${local.b} %%{ if local.b } \\n\n";

/**
 * `a` reads resource `r`, which reads `b`: `a` and `b` in one object would be a cycle
 * (layer → r → layer).
 */
function configuration(): Record<string, any> {
  return {
    variable: {
      n: {
        type: "number",
        description: "not an expression: ${local.b} stays",
        validation: [{ condition: "${var.n > 0}", error_message: "n must be positive" }],
      },
    },
    locals: {
      b: "${var.n + 1}",
      a: "${terraform_data.r.input * 2}",
      c: "${local.a + local.b}",
      nested: '${format("%s ${local.b}", "local.b")}',
      directive: "%{ if local.b > 1 }big%{ else }small%{ endif }",
      script: SCRIPT,
    },
    resource: {
      terraform_data: {
        r: { input: "${local.b}" },
        script: { input: SCRIPT },
        after: { input: "${local.c}", depends_on: ["terraform_data.r"] },
      },
    },
    output: {
      a: { value: "${local.a}", description: "local.a, ${local.a}" },
      c: { value: "${local.c}" },
      nested: { value: "${local.nested}" },
      directive: { value: "${local.directive}" },
      script: { value: "${local.script}" },
      script_resource: { value: "${terraform_data.script.input}" },
      after: { value: "${terraform_data.after.input}" },
    },
  };
}

const LAYERED = { minLocals: 0 };

describe("templateTraversals", () => {
  const roots = (template: string) => templateTraversals(template).map((t) => t.names.join("."));

  it("finds references only inside sequences, nested strings' templates included", () => {
    expect(roots("${local.a + var.local.b}")).toEqual(["local.a", "var.local.b"]);
    expect(roots('${format("%s ${local.b}", "local.c")}')).toEqual(["format", "local.b"]);
    expect(roots("%{ if local.d }x%{ endif }")).toEqual(["if", "local.d", "endif"]);
    expect(roots("${data.coder_workspace.me.id[0].local.x}")).toEqual([
      "data.coder_workspace.me.id",
    ]);
  });

  it("finds none in literal text, escaped sequences or scripts", () => {
    expect(roots(SCRIPT)).toEqual([]);
    expect(roots("local.foo $${local.foo} %%{local.foo}")).toEqual([]);
  });
});

describe("localLayers", () => {
  it("puts a local that reads a resource apart from the locals the resource reads", () => {
    const layers = localLayers(configuration(), LAYERED)!;
    const of = (name: string) => layers.layerOf.get(name);
    expect(of("a")).not.toBe(of("b"));
    expect(layers.names.indexOf(of("b")!)).toBeLessThan(layers.names.indexOf(of("a")!));
    // c reads a: a later layer again. The locals that read only variables share the first,
    // those that read them the next (stage 0, depth 1).
    expect(layers.names.indexOf(of("a")!)).toBeLessThan(layers.names.indexOf(of("c")!));
    expect([of("b"), of("script"), of("nested"), of("directive"), of("a"), of("c")]).toEqual([
      "layer_0",
      "layer_0",
      "layer_1",
      "layer_1",
      "layer_2",
      "layer_3",
    ]);
    expect(layers.names).toEqual(["layer_0", "layer_1", "layer_2", "layer_3"]);
  });

  it("follows a module's depends_on: a local that reads the module is kept apart from what it waits for", () => {
    // c reads q; r reads c; m waits for r; a reads m's output. Without the depends_on edge, a
    // and c would share a layer, and layer → m → r → layer is a cycle.
    const config = {
      provider: { kubernetes: [{}] },
      locals: { c: "${kubernetes_config_map_v1.q.id}", a: "${module.m.out}" },
      resource: {
        kubernetes_config_map_v1: { q: { data: "${var.n}" }, r: { data: "${local.c}" } },
      },
      module: { m: { source: "./m", depends_on: ["kubernetes_config_map_v1.r"] } },
    };
    const layers = localLayers(config, LAYERED)!;
    const index = (l: typeof layers, name: string) => l.names.indexOf(l.layerOf.get(name)!);
    expect(index(layers, "a")).toBeGreaterThan(index(layers, "c"));
    const without = { ...config, module: { m: { source: "./m" } } };
    const unordered = localLayers(without, LAYERED)!;
    expect(unordered.layerOf.get("a")).toBe(unordered.layerOf.get("c"));
  });

  it("keeps few locals flat, and locals in a cycle (Terraform's error to report)", () => {
    expect(Object.keys(configuration().locals).length).toBeLessThan(MIN_LAYERED_LOCALS);
    expect(localLayers(configuration())).toBeUndefined();
    const cycle = { locals: { x: "${local.y}", y: "${local.x}" } };
    expect(localLayers(cycle, LAYERED)).toBeUndefined();
  });

  it("rewrites references in expressions only: descriptions, scripts and escapes keep their bytes", () => {
    const config = configuration();
    const layers = localLayers(config, LAYERED)!;
    const out = rewriteLocalReferences(config, layers) as Record<string, any>;
    expect(out.locals.c).toBe("${local.layer_2.a + local.layer_0.b}");
    expect(out.locals.nested).toBe('${format("%s ${local.layer_0.b}", "local.b")}');
    expect(out.locals.directive).toBe("%{ if local.layer_0.b > 1 }big%{ else }small%{ endif }");
    expect(out.locals.script).toBe(SCRIPT);
    expect(out.resource.terraform_data.script.input).toBe(SCRIPT);
    expect(out.resource.terraform_data.after.depends_on).toEqual(["terraform_data.r"]);
    expect(out.variable).toEqual(config.variable);
    expect(out.output.a).toEqual({
      value: "${local.layer_2.a}",
      description: "local.a, ${local.a}",
    });
    expect(localReference(config, "a")).toBe("local.a");
  });

  it("names the layer a local is read from once there are MIN_LAYERED_LOCALS of them", () => {
    const locals = Object.fromEntries(
      Array.from({ length: MIN_LAYERED_LOCALS }, (_, i) => [
        `l${i}`,
        i === 0 ? "${var.n}" : `\${local.l${i - 1} + 1}`,
      ]),
    );
    const config = { variable: { n: { type: "number" } }, locals };
    expect(localReference(config, "l0")).toBe("local.layer_0.l0");
    expect(localReference(config, "l3")).toBe("local.layer_3.l3");
    expect(localReference(config, "absent")).toBe("local.absent");
  });
});

describe("writeHclFiles: layered locals", () => {
  const dirs: string[] = [];
  const stackDir = (config: Record<string, unknown>): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "local-layers-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "cdk.tf.json"), JSON.stringify(config, null, 2));
    return dir;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  const layeredDir = () => {
    const dir = stackDir(configuration());
    const groups = [
      { owner: "first (First)", names: ["b", "a"], whys: { a: "Reads the resource." } },
      { owner: "second (Second)", names: ["c", "nested", "directive", "script"] },
    ];
    expect(writeHclFiles(dir, undefined, { layers: LAYERED, localGroups: groups })).toEqual(
      configuration(),
    );
    return dir;
  };
  const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), "utf8");

  it("writes each layer as one object, with its constructs' comments and the whys", () => {
    const text = read(layeredDir(), LOCALS_FILE);
    expect(text).toContain("a layer reads only earlier layers");
    expect(text).toContain(
      "locals {\n  layer_2 = {\n    # first (First)\n    # Reads the resource.\n    a = terraform_data.r.input * 2\n  }\n}",
    );
    expect(text).toContain(
      "  layer_0 = {\n    # first (First)\n    b = var.n + 1\n\n    # second (Second)\n",
    );
    expect(localNames(text).sort()).toEqual(Object.keys(configuration().locals).sort());
  });

  it("writes the same fmt-clean bytes twice", () => {
    const [one, two] = [layeredDir(), layeredDir()];
    for (const file of ["cdk.tf.json", LOCALS_FILE, RESOURCES_FILE]) {
      expect(read(one, file)).toBe(read(two, file));
      if (file.endsWith(".tf")) expect(terraformFmtCheck(read(one, file)).output).toBe("");
    }
    expect(read(one, RESOURCES_FILE)).toMatch(/input += local.layer_3.c/);
    expect(JSON.parse(read(one, "cdk.tf.json")).output.c.value).toBe("${local.layer_3.c}");
  });

  it("keeps fewer than MIN_LAYERED_LOCALS locals flat by default", () => {
    const dir = stackDir(configuration());
    writeHclFiles(dir);
    expect(read(dir, LOCALS_FILE)).not.toContain("layer_");
    expect(read(dir, RESOURCES_FILE)).toMatch(/input += local.c\n/);
  });

  it("plans the same values from the layered files as from the flat configuration", async () => {
    const variables = { n: 7 };
    const flat = await planExpressions(stackDir(configuration()), variables);
    const layered = await planExpressions(layeredDir(), variables);
    expect(flat.values).toEqual({
      a: 16,
      c: 24,
      nested: "local.b 8",
      directive: "big",
      script: SCRIPT.replace("$${", "${").replace("%%{", "%{"),
      script_resource: SCRIPT.replace("$${", "${").replace("%%{", "%{"),
      after: 24,
    });
    expect(layered.values).toEqual(flat.values);
    expect(layered.warnings).toEqual(flat.warnings);
  });
});
