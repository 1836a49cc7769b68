/**
 * WorkspaceParameter: `data.coder_parameter.<id>` with an explicit order (a .tf.json template
 * loses source order), immutable unless asked, and a default that must be one of its options.
 */
import { TerraformOutput } from "../../lib/core/cdk";
import { coderProvider } from "../../lib/constructs/providers";
import { WorkspaceParameter } from "../../lib/constructs/workspace-parameter";
import { synthConstruct } from "./construct-stack";

const BASE = { order: 1, displayName: "Region", description: "Where it runs." };

it("is data.coder_parameter.<id>, named after the id, a string, immutable, with its order", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    new WorkspaceParameter(stack, "region", BASE);
  });
  expect(tf.data.coder_parameter.region).toEqual({
    name: "region",
    display_name: "Region",
    description: "Where it runs.",
    type: "string",
    mutable: false,
    order: 1,
  });
});

it("passes type, default, mutability, icon, options, validation, form type and name through", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    new WorkspaceParameter(stack, "size", {
      ...BASE,
      order: 4,
      name: "Size",
      type: "number",
      default: "4",
      mutable: true,
      icon: "/icon/memory.svg",
      options: [
        { name: "Two", value: "2" },
        { name: "Four", value: "4" },
      ],
      validation: { min: 1, max: 8 },
      formType: "radio",
    });
  });
  expect(tf.data.coder_parameter.size).toMatchObject({
    name: "Size",
    type: "number",
    default: "4",
    mutable: true,
    icon: "/icon/memory.svg",
    order: 4,
    form_type: "radio",
    option: [
      { name: "Two", value: "2" },
      { name: "Four", value: "4" },
    ],
    validation: { min: 1, max: 8 },
  });
});

it("gives its value as a string, and as a number through tonumber()", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    const p = new WorkspaceParameter(stack, "cpu", { ...BASE, type: "number", default: "2" });
    new TerraformOutput(stack, "text", { value: p.value });
    new TerraformOutput(stack, "number", { value: p.numberValue });
  });
  expect(tf.output.text.value).toBe("${data.coder_parameter.cpu.value}");
  expect(tf.output.number.value).toBe("${tonumber(data.coder_parameter.cpu.value)}");
});

it.each([-1, 1.5, Number.NaN])("refuses order %p: it must be a non-negative integer", (order) => {
  expect(() =>
    synthConstruct((stack) => {
      new WorkspaceParameter(stack, "region", { ...BASE, order });
    }),
  ).toThrow(/construct\/region: order must be a non-negative integer/);
});

it("refuses a default that is not one of its options, listing them", () => {
  expect(() =>
    synthConstruct((stack) => {
      new WorkspaceParameter(stack, "region", {
        ...BASE,
        default: "mars",
        options: [
          { name: "EU", value: "eu" },
          { name: "US", value: "us" },
        ],
      });
    }),
  ).toThrow('default "mars" is not one of the options (eu, us)');
});

it("writes styling as the JSON Coder's dynamic form reads, and a slider with its range", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    new WorkspaceParameter(stack, "disk", {
      ...BASE,
      type: "number",
      default: "10",
      formType: "slider",
      validation: { min: 1, max: 100, error: "Pick {min} to {max} GiB." },
      styling: { placeholder: "GiB" },
    });
  });
  expect(tf.data.coder_parameter.disk).toMatchObject({
    form_type: "slider",
    styling: '{"placeholder":"GiB"}',
    validation: { min: 1, max: 100, error: "Pick {min} to {max} GiB." },
  });
});

it("writes the maskInput prop as Coder's mask_input key", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    new WorkspaceParameter(stack, "token", {
      ...BASE,
      styling: { label: "Token", maskInput: true },
      mayHoldSecrets: true,
    });
  });
  expect(JSON.parse(tf.data.coder_parameter.token.styling)).toEqual({
    label: "Token",
    mask_input: true,
  });
});

it.each([
  ["a string", { formType: "slider", validation: { min: 1, max: 2 } }],
  ["a number without max", { formType: "slider", type: "number", validation: { min: 1 } }],
])("refuses a slider on %s: it needs a number range", (_, props) => {
  expect(() =>
    synthConstruct((stack) => {
      coderProvider(stack);
      new WorkspaceParameter(stack, "bad", { ...BASE, ...(props as object) });
    }),
  ).toThrow(/formType "slider" needs type "number" and a validation with min and max/);
});
