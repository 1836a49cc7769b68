/**
 * Size presets: every template offers sizes as presets, built from the options its CPU and
 * memory parameters offer, with exactly one default (the size the parameters default to).
 */
import { coderProvider } from "../../lib/constructs/providers";
import { sizePresets, type SizePreset } from "../../lib/constructs/size-presets";
import type { TemplateStack } from "../../lib/constructs/template-stack";
import { WorkspaceParameter } from "../../lib/constructs/workspace-parameter";
import { synthTemplate } from "../support/synth-template";
import { synthConstruct } from "./construct-stack";

function parameters(stack: TemplateStack) {
  coderProvider(stack);
  const options = (unit: string) => ["1", "2"].map((n) => ({ name: `${n} ${unit}`, value: n }));
  return {
    cpu: new WorkspaceParameter(stack, "cpu", {
      order: 1,
      displayName: "CPU",
      description: "c",
      default: "1",
      options: options("Cores"),
    }),
    memory: new WorkspaceParameter(stack, "memory", {
      order: 2,
      displayName: "Memory",
      description: "m",
      default: "1",
      options: options("GiB"),
    }),
  };
}

const build = (presets: readonly SizePreset[]) => (stack: TemplateStack) =>
  sizePresets(stack, { presets, ...parameters(stack), memoryUnit: "GiB" });

it("writes one preset per size, with the parameters' names and the one default", () => {
  const tf = synthConstruct(
    build([
      { id: "small", name: "Small", cpu: "1", memory: "1", default: true },
      { id: "big", name: "Big", cpu: "2", memory: "2" },
    ]),
  );
  const presets = tf.data.coder_workspace_preset;
  expect(presets.small).toMatchObject({
    name: "Small",
    default: true,
    description: "1 CPU cores, 1 GiB memory",
    parameters: { cpu: "1", memory: "1" },
  });
  expect(presets.big).toMatchObject({ default: false, parameters: { cpu: "2", memory: "2" } });
});

it("refuses a size the parameter does not offer", () => {
  expect(() =>
    synthConstruct(build([{ id: "huge", name: "Huge", cpu: "16", memory: "1", default: true }])),
  ).toThrow(/size preset "Huge": "16" is not one of the options of parameter "cpu" \(1, 2\)/);
});

it.each([
  ["none", []],
  ["two", [true, true]],
])("refuses %s defaults", (_what, defaults) => {
  const presets = [0, 1].map((i) => ({
    id: `s${i}`,
    name: `S${i}`,
    cpu: "1",
    memory: "1",
    default: (defaults as boolean[])[i] ?? false,
  }));
  expect(() => synthConstruct(build(presets))).toThrow(
    /exactly one size preset must be the default/,
  );
});

describe.each(["kubernetes", "devcontainer", "packer-builder"])("template %s", (id) => {
  const config = synthTemplate<Record<string, any>>(id).config;
  const presets = Object.values(config.data.coder_workspace_preset as Record<string, any>);
  const parameter = (name: string) => config.data.coder_parameter[name];

  it("has small, medium and large presets, exactly one of them the default", () => {
    expect(presets.map((p) => p.name).sort()).toEqual(["Large", "Medium", "Small"]);
    expect(presets.filter((p) => p.default === true)).toHaveLength(1);
  });

  it("sets only options its parameters offer, and the default preset is the parameters' defaults", () => {
    for (const preset of presets) {
      for (const [name, value] of Object.entries(preset.parameters as Record<string, string>)) {
        expect(parameter(name).option.map((o: { value: string }) => o.value)).toContain(value);
      }
    }
    const byDefault = presets.find((p) => p.default === true);
    for (const [name, value] of Object.entries(byDefault.parameters as Record<string, string>)) {
      expect([name, parameter(name).default]).toEqual([name, value]);
    }
  });
});
