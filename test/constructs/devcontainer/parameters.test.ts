/**
 * DevcontainerParameters: the workspace form, in order. Names, types, defaults, options and
 * mutability are a contract with existing workspaces and with the VS Code extension.
 */
import { coderProvider } from "../../../lib/constructs/providers";
import { DevcontainerParameters } from "../../../lib/devcontainer/parameters";
import { synthConstruct, type TerraformJson } from "../construct-stack";

let params: Record<string, any>;
beforeAll(() => {
  const tf: TerraformJson = synthConstruct((stack) => {
    coderProvider(stack);
    new DevcontainerParameters(stack, "parameters");
  });
  params = tf.data.coder_parameter;
});

it("orders the seven parameters 1..7 as the form shows them", () => {
  const byOrder = Object.values(params)
    .sort((a, b) => a.order - b.order)
    .map((p) => [p.order, p.name]);
  expect(byOrder).toEqual([
    [1, "repository"],
    [2, "branch"],
    [3, "cpu"],
    [4, "memory"],
    [5, "disk_size"],
    [6, "devcontainer_variables"],
    [7, "rebuild"],
  ]);
});

it("addresses each parameter by its name", () => {
  for (const [address, p] of Object.entries(params)) expect(p.name).toBe(address);
});

it("fixes repository, branch and disk size at creation; the rest may change", () => {
  const mutable = Object.values(params)
    .filter((p) => p.mutable)
    .map((p) => p.name)
    .sort();
  expect(mutable).toEqual(["cpu", "devcontainer_variables", "memory", "rebuild"]);
});

it("requires a repository (no default) and defaults the rest", () => {
  expect(params.repository).not.toHaveProperty("default");
  expect(params.branch.default).toBe("main");
  expect(params.disk_size).toMatchObject({ type: "number", default: "10" });
  expect(params.rebuild).toMatchObject({ type: "number", default: "0" });
  expect(params.devcontainer_variables).toMatchObject({ default: "", form_type: "textarea" });
});

it("offers 2, 4, 6 and 8 cores and GiB, defaulting to 2", () => {
  for (const name of ["cpu", "memory"]) {
    expect(params[name].default).toBe("2");
    expect(params[name].option.map((o: { value: string }) => o.value)).toEqual([
      "2",
      "4",
      "6",
      "8",
    ]);
  }
});

it("bounds the disk size to at least 1 GiB", () => {
  expect(params.disk_size.validation).toEqual({ min: 1, max: 99999 });
});

it("escapes the literal ${localEnv:NAME} in a description, so Terraform shows it as text", () => {
  expect(params.devcontainer_variables.description).toContain("$${localEnv:NAME}");
  expect(params.devcontainer_variables.description).not.toMatch(/(?<!\$)\$\{/);
});
