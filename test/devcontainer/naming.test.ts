/**
 * In a template (no prefix) the mapping constructs' decisions are the named locals and
 * check blocks that operators read in Coder's template editor.
 */
import { App, TerraformVariable } from "../../lib/core/cdk";
import { Expr } from "../../lib/core/expr";
import { DevcontainerKubernetesCustomizations } from "../../lib/devcontainer/kubernetes-customizations";
import { DevcontainerPlacement } from "../../lib/devcontainer/placement";
import { DevcontainerSizing } from "../../lib/devcontainer/sizing";
import { DevcontainerWarnings } from "../../lib/devcontainer/warnings";
import { TemplateStack } from "../../lib/constructs/template-stack";

function templateStack(): TemplateStack {
  return new TemplateStack(new App({ outdir: "/tmp/naming-test-unused" }), "devcontainer", {
    sourceDir: "templates/devcontainer",
    frontMatter: { displayName: "x", description: "x", icon: "/icon/x.svg" },
  });
}

describe("mapping construct names in a template", () => {
  it("gives each decision its documented local name and the two check blocks their names", () => {
    const stack = templateStack();
    const dc = new TerraformVariable(stack, "dc", { type: "any" });
    const customizations = new DevcontainerKubernetesCustomizations(
      stack,
      "kubernetes_customizations",
      {
        configuration: Expr.of(dc.value),
      },
    );
    const sizing = new DevcontainerSizing(stack, "sizing", {
      customizations,
      hostRequirements: Expr.of(dc.value),
      cpu: Expr.of<string>("2"),
      memory: Expr.of<string>("2"),
      diskSize: Expr.of<string>("10"),
      maxCpu: Expr.of<number>(8),
      maxMemory: Expr.of<number>(32),
    });
    const placement = new DevcontainerPlacement(stack, "placement", {
      customizations,
      allowNodePlacement: Expr.of<boolean>(false),
    });
    new DevcontainerWarnings(stack, "warnings", {
      resourceWarnings: sizing.warnings,
      placementWarnings: placement.warnings,
      variables: Expr.of<unknown[]>([]),
      variablesText: Expr.of<string>(""),
    });
    const tf = JSON.parse(JSON.stringify(stack.toTerraform()));
    expect(Object.keys(tf.locals)).toEqual(
      expect.arrayContaining([
        "k8s_customizations",
        "cpu_request",
        "cpu_limit",
        "memory_request",
        "memory_limit",
        "disk_size",
        "resource_requests",
        "resource_limits",
        "resources_summary",
        "resource_warnings",
        "node_selector",
        "tolerations",
        "placement_warnings",
        "all_warnings",
        "missing_variables",
      ]),
    );
    expect(Object.keys(tf.check).sort()).toEqual([
      "devcontainer_variables",
      "devcontainer_warnings",
    ]);
    expect(tf.locals.resource_limits).toMatch(/local\.cpu_limit/);
    expect(tf.locals.warning_lines).toMatch(/local\.resource_warnings/);
  });

  it("refuses two constructs that would define the same local", () => {
    const stack = templateStack();
    new DevcontainerKubernetesCustomizations(stack, "a", { configuration: Expr.of({}) });
    expect(
      () => new DevcontainerKubernetesCustomizations(stack, "b", { configuration: Expr.of({}) }),
    ).toThrow(/local\.k8s_customizations_listed is already defined by devcontainer\/a/);
    expect(
      () =>
        new DevcontainerKubernetesCustomizations(stack, "c", {
          configuration: Expr.of({}),
          localPrefix: "x-",
        }),
    ).toThrow(/not a Terraform name/);
  });
});
