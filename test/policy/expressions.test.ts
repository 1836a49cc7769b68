import { interpolations, isGatedBy, references } from "../../lib/policy/expressions";

describe("interpolations", () => {
  it("returns the bodies of ${…} and %{…}, skipping $${ and %%{ escapes", () => {
    expect(interpolations('a ${var.x} $${HOME} %{ if local.y }b%{ endif } ${f("}")}')).toEqual([
      "var.x",
      "if local.y",
      "endif",
      'f("}")',
    ]);
  });
});

describe("references", () => {
  it("finds references outside string literals, with indexes and splats", () => {
    expect(
      references('one(data.x.y[*]).a + coder_agent.main.token + "var.not_a_ref" + local.z["k"]'),
    ).toEqual(["data.x.y[*]", "coder_agent.main.token", 'local.z["_"]']);
  });

  it("finds references in templates nested in string literals, quotes and all", () => {
    expect(references('"a${f("b", var.x)}c" == local.y')).toEqual(["var.x", "local.y"]);
  });
});

describe("isGatedBy", () => {
  const locals: Record<string, string> = { p: "var.allow_privileged && local.q", q: "true" };
  const resolve = (name: string) => locals[name];
  it.each([
    ["var.allow_privileged", true],
    ["(var.allow_privileged && local.wants)", true],
    ["local.wants && (var.allow_privileged && x)", true],
    ["var.allow_privileged ? [1] : []", true],
    ["local.p", true],
    ["var.allow_privileged || x", false],
    ["var.allow_privileged && a || b", false],
    ["var.allow_privileged ? [1] : [2]", false],
    ["!var.allow_privileged", false],
    ["var.allow_privileged_extra && x", false],
    ["local.q", false],
  ])("%s → %s", (expr, gated) => {
    expect(isGatedBy(expr, "allow_privileged", resolve)).toBe(gated);
  });
});
