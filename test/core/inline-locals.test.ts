/**
 * Locals folded into their readers (lib/private/inline-locals.ts): which ones go, which stay,
 * and real Terraform planning the same values from the folded configuration as from the one
 * with every step named.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { writeHclFiles } from "../../lib/private/hcl-files";
import { inlineLocals } from "../../lib/private/inline-locals";
import { LOCALS_FILE, localNames } from "../../lib/private/locals-file";

jest.setTimeout(60_000);

/** Locals of every kind the pass tells apart, read by each other and by outputs. */
const LOCALS: Record<string, unknown> = {
  // Read once, by one local: folded into it, parenthesised.
  doubled: "${var.n * 2}",
  // Read twice, by one local: stays (no expression is evaluated or written twice).
  squared: "${var.n * var.n}",
  // A short accessor read by two locals: folded into both.
  first: '${try(var.m["a"], null)}',
  // A template that is no one interpolation, read once: becomes a quoted string.
  label: 'n=${var.n} "q" $${not} %%{not}\ttab',
  // Read once but by an output: stays.
  shown: "${local.doubled + 1}",
  // A list is no one expression: stays.
  listed: ["${local.first}", "${local.squared}"],
  // A chain: read once each, all folded into `total`.
  one: "${var.n + 1}",
  two: "${local.one + 1}",
  total: "${local.two + local.squared + local.squared + length(local.label)}",
  // Read by nothing: stays, for its construct to drop.
  unread: "${var.n}",
  // Its name only in an output's literal text: stays (any mention outside locals counts).
  mentioned: "${var.n + 3}",
  reads_mentioned: "${local.mentioned}",
  // A dynamic key in an object, and a directive: references there are rewritten too.
  key: '${"k"}',
  keyed: { "${local.key}": "${local.first}" },
  flag: "${var.n > 1}",
  directive: "%{ if local.flag }big%{ else }small%{ endif }",
  // Read once, but in a for expression's body, which runs once per element: stays (folded,
  // the map would be built again for every element).
  first_place: "${{ for i, x in var.xs : x => i... }}",
  deduped: "${[for i, x in var.xs : x if local.first_place[x][0] == i]}",
  // Read once, in a template's for directive, which repeats it: stays.
  prefix: '${upper("p")}',
  per_line: "%{ for x in var.xs }${local.prefix}${x};%{ endfor }",
  // Read once, as a for expression's collection, which is evaluated once: folded.
  xs_doubled: "${[for x in var.xs : x * 2]}",
  sum_doubled: "${sum([for x in local.xs_doubled : x + 1])}",
};

function configuration(): Record<string, unknown> {
  return {
    variable: {
      n: { type: "number" },
      m: { type: "map(string)" },
      xs: { type: "list(number)" },
    },
    locals: LOCALS,
    output: {
      shown: { value: "${local.shown}" },
      listed: { value: "${local.listed}" },
      total: { value: "${local.total}" },
      keyed: { value: "${local.keyed}" },
      directive: { value: "${local.directive}" },
      reads_mentioned: { value: "${local.reads_mentioned}", description: "local.mentioned" },
      first: { value: "${try(local.listed[0], null)}" },
      deduped: { value: "${local.deduped}" },
      sum_doubled: { value: "${local.sum_doubled}" },
      per_line: { value: "${local.per_line}" },
    },
  };
}

describe("inlineLocals", () => {
  const out = inlineLocals(configuration()) as { locals: Record<string, unknown> };

  it("folds locals read once by a local, and short accessors, into their readers", () => {
    expect(Object.keys(out.locals).sort()).toEqual(
      [
        "deduped",
        "directive",
        "first_place",
        "keyed",
        "listed",
        "mentioned",
        "per_line",
        "prefix",
        "reads_mentioned",
        "shown",
        "squared",
        "sum_doubled",
        "total",
        "unread",
      ].sort(),
    );
    expect(out.locals.shown).toBe("${(var.n * 2) + 1}");
    expect(out.locals.total).toBe(
      '${((var.n + 1) + 1) + local.squared + local.squared + length("n=${var.n} \\"q\\" $${not} %%{not}\\ttab")}',
    );
    expect(out.locals.listed).toEqual(['${try(var.m["a"], null)}', "${local.squared}"]);
    expect(out.locals.keyed).toEqual({ '${"k"}': '${try(var.m["a"], null)}' });
    expect(out.locals.directive).toBe("%{ if (var.n > 1) }big%{ else }small%{ endif }");
    expect(out.locals.deduped).toBe(LOCALS.deduped);
    expect(out.locals.sum_doubled).toBe("${sum([for x in [for x in var.xs : x * 2] : x + 1])}");
  });

  it("leaves a configuration without locals as it is", () => {
    const none = { output: { x: { value: 1 } } };
    expect(inlineLocals(none)).toBe(none);
  });

  it("plans the same values as the configuration with every step named", async () => {
    const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), "inline-locals-")));
    try {
      const [named, folded] = dirs;
      fs.writeFileSync(path.join(named, "cdk.tf.json"), JSON.stringify(configuration()));
      fs.writeFileSync(path.join(folded, "cdk.tf.json"), JSON.stringify(configuration()));
      // writeHclFiles folds them and returns the configuration as it was given.
      expect(writeHclFiles(folded)).toEqual(configuration());
      const shipped = localNames(fs.readFileSync(path.join(folded, LOCALS_FILE), "utf8"));
      expect(shipped.sort()).toEqual(Object.keys(out.locals).sort());
      const variables = { n: 3, m: { a: "x" }, xs: [1, 2, 1, 3] };
      const [before, after] = await Promise.all(dirs.map((d) => planExpressions(d, variables)));
      expect(before.values).toEqual({
        shown: 7,
        listed: ["x", 9],
        total: 5 + 9 + 9 + 'n=3 "q" ${not} %{not}\ttab'.length,
        keyed: { k: "x" },
        directive: "big",
        reads_mentioned: 6,
        first: "x",
        deduped: [1, 2, 3],
        sum_doubled: 2 + 4 + 2 + 6 + 4,
        per_line: "P1;P2;P1;P3;",
      });
      expect(after.values).toEqual(before.values);
    } finally {
      dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
    }
  });
});
