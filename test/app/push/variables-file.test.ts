import { checkVariablesFile, requiredWithoutValue } from "../../../app/variables-file";

// The operator's --variables-file, checked against the template's variables before a push:
// names, types (as Coder reads the file: text values Terraform converts) and required ones.

const VARIABLES = {
  namespace: { type: "string" },
  max_cpu: { type: "number", default: 4 },
  allow_privileged: { type: "bool", default: false },
  extra_groups: { type: "list(string)", default: [] },
  labels: { type: "map(string)", default: {} },
  git_credentials_token: { type: "string", default: "", sensitive: true },
};
const check = (text: string, configured: string[] = []) =>
  checkVariablesFile("vars.yaml", text, VARIABLES, configured);
const problem = (text: string, configured: string[] = ["namespace"]) => {
  try {
    check(text, configured);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("accepted");
};

it("returns the names it sets, and takes values Terraform converts to the variable's type", () => {
  expect(
    check(
      [
        "namespace: team-a",
        "max_cpu: '8'",
        "allow_privileged: true",
        `extra_groups: '["docker", "video"]'`,
        `labels: '{"team": "a"}'`,
        "git_credentials_token: ghp_secret",
      ].join("\n"),
    ).names,
  ).toEqual([
    "namespace",
    "max_cpu",
    "allow_privileged",
    "extra_groups",
    "labels",
    "git_credentials_token",
  ]);
  // An empty file sets nothing; a required variable may come from the configuration.
  expect(check("", ["namespace"]).names).toEqual([]);
  expect(check("# nothing\n", ["namespace"]).names).toEqual([]);
});

it.each([
  [
    "namespce: a\n",
    `vars.yaml:1:1: namespce: unknown variable (did you mean "namespace"?); the template has: namespace, max_cpu`,
  ],
  ["zzz: a\n", "vars.yaml:1:1: zzz: unknown variable; the template has:"],
  [
    "max_cpu: lots\n",
    "vars.yaml:1:10: max_cpu: the value is not a number; the variable has type number",
  ],
  ["allow_privileged: yes\n", "vars.yaml:1:19: allow_privileged: the value is not true or false"],
  [
    "extra_groups:\n  - docker\n",
    "vars.yaml:2:3: extra_groups: the value is YAML list; Coder reads this file as text values",
  ],
  [
    "extra_groups: docker\n",
    "extra_groups: the value is not a JSON list in quotes; the variable has type list(string)",
  ],
  [`labels: '["a"]'\n`, "labels: the value is not a JSON object in quotes"],
  ["max_cpu:\n", "vars.yaml:1:1: max_cpu: has no value"],
  ["max_cpu: 1\nmax_cpu: 2\n", "vars.yaml:2:1: not valid YAML"],
  ["- namespace\n", "vars.yaml:1:1: must be a YAML map of variable names to values"],
  ["max_cpu: [1\n", "not valid YAML"],
])("refuses %p", (text, message) => {
  expect(problem(text)).toContain(message);
});

it("never shows a value in its messages", () => {
  expect(problem("git_credentials_token:\n  - ghp_topsecret\n")).not.toContain("ghp_topsecret");
  expect(problem("max_cpu: s3cr3t-value\n")).not.toContain("s3cr3t");
});

it("names the required variables neither the file nor the configuration sets", () => {
  expect(problem("max_cpu: 2\n", [])).toBe(
    "vars.yaml: required variable without a value: namespace. Set it in this file, or (when not secret) under templates.<id>.variables in coder-cdktf.jsonc.",
  );
  expect(requiredWithoutValue(VARIABLES, [])).toEqual(["namespace"]);
  expect(requiredWithoutValue(VARIABLES, ["namespace"])).toEqual([]);
});
