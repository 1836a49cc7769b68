/**
 * RegistryModule: a registry module pinned to one exact version, with inputs and an optional
 * count (set by override, as cdktf's module class has none).
 */
import { RegistryModule } from "../../lib/constructs/registry-module";
import { synthConstruct } from "./construct-stack";

const SOURCE = "registry.coder.com/coder/vscode-web/coder";

it("is module.<id> with source, exact version and inputs, and no count unless given", () => {
  const tf = synthConstruct((stack) => {
    new RegistryModule(stack, "web", {
      source: SOURCE,
      version: "1.6.2",
      inputs: { agent_id: "a", accept_license: true },
    });
  });
  expect(tf.module).toEqual({
    web: { source: SOURCE, version: "1.6.2", agent_id: "a", accept_license: true },
  });
});

it("writes count as a module meta-argument, e.g. the workspace's start_count", () => {
  const tf = synthConstruct((stack) => {
    new RegistryModule(stack, "web", {
      source: SOURCE,
      version: "1.6.2",
      count: 0,
      moduleName: "vscode_web",
    });
  });
  expect(Object.keys(tf.module)).toEqual(["vscode_web"]);
  expect(tf.module.vscode_web.count).toBe(0);
});

it.each(["~> 1.6", ">= 1.0.0", "1.6", "latest", "v1.6.2"])(
  "refuses version %p: a template version must always fetch the same module code",
  (version) => {
    expect(() =>
      synthConstruct((stack) => {
        new RegistryModule(stack, "web", { source: SOURCE, version });
      }),
    ).toThrow(/construct\/web: module version must be exact \(x\.y\.z\)/);
  },
);
