/**
 * sanitizedLabelValue: a human-readable name made into a valid Kubernetes label value, the same
 * way for literal text (at synth) and for an apply-time value (as a Terraform expression).
 */
import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { MAX_LABEL_VALUE_LENGTH, sanitizedLabelValue } from "../../lib/constructs/label-value";
import { planExpressions } from "@coder-cdktf/terraform-harness";

/** Kubernetes' rule for label values: alphanumeric at both ends, `-_.` and alphanumerics inside. */
const LABEL_VALUE = /^(([a-z0-9][-a-z0-9_.]*)?[a-z0-9])?$/;

const NAMES = [
  "alice",
  "Alice Example",
  "dev.workspace-1",
  "--leading and trailing..",
  "Zoë's büro",
  "x".repeat(70),
  `${"a".repeat(62)}-b`,
  "@@@",
];

it.each([
  ["Alice Example", "alice-example"],
  ["dev.workspace-1", "dev.workspace-1"],
  ["--leading and trailing..", "leading-and-trailing"],
  ["Zoë's büro", "zo--s-b-ro"],
  ["@@@", ""],
])("sanitizes %p to %p", (input, expected) => {
  expect(sanitizedLabelValue(input)).toBe(expected);
});

it("cuts to 63 characters before trimming, so the value still ends with an alphanumeric", () => {
  expect(sanitizedLabelValue("x".repeat(70))).toHaveLength(MAX_LABEL_VALUE_LENGTH);
  expect(sanitizedLabelValue(`${"a".repeat(62)}-b`)).toBe("a".repeat(62));
});

it("gives a valid label value for every name", () => {
  for (const name of NAMES) expect(sanitizedLabelValue(name)).toMatch(LABEL_VALUE);
});

it("plans an apply-time name to the same value as the synth-time sanitizing", async () => {
  const plan = await planExpressions(
    (stack) => {
      NAMES.forEach((_, i) => {
        const name = new TerraformVariable(stack, `name_${i}`, { type: "string" });
        new TerraformOutput(stack, `label_${i}`, { value: sanitizedLabelValue(name.stringValue) });
      });
    },
    Object.fromEntries(NAMES.map((name, i) => [`name_${i}`, name])),
  );
  NAMES.forEach((name, i) => {
    expect({ name, label: plan.values[`label_${i}`] }).toEqual({
      name,
      label: sanitizedLabelValue(name),
    });
  });
});
