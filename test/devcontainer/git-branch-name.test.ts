/**
 * lib/devcontainer/git-branch-name.ts: the `branch` parameter's pattern is git's own rule for
 * a branch name (issue 43.8). Checked against the real `git check-ref-format --branch` on
 * named and random names, and read the same by JavaScript (the harness's mock) and by
 * Terraform's RE2 (Coder's Go).
 */
import { spawnSync } from "node:child_process";
import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { hcl } from "../../lib/core/expr";
import { GIT_BRANCH_PATTERN } from "../../lib/devcontainer/git-branch-name";
import { planExpressions } from "@coder-cdktf/terraform-harness";

jest.setTimeout(60_000);

/** Hostile and odd names, each with what git says of it as a branch. */
const NAMED = [
  "main",
  "feature/login-page",
  "release/v1.2.3",
  "renovate/@types-node-20.x",
  "user@fix",
  "fix/#123",
  "über/straße",
  "a./b",
  "x.lock1",
  "lock",
  "HEAD/x",
  "x/HEAD",
  "@x",
  "@@",
  "x/@",
  "--upload-pack=touch /tmp/pwned",
  "-b",
  "main\n--upload-pack=x",
  "main\r",
  "main\tx",
  "main x",
  "a..b",
  "../etc",
  ".hidden",
  "a/.b",
  "a.lock",
  "a.lock/b",
  "a/",
  "/a",
  "a//b",
  "a.",
  "a@{1}",
  "a~1",
  "a^",
  "a:b",
  "a?",
  "a*",
  "a[b",
  "a\\b",
  "HEAD",
  "@",
  "\u007f",
  "",
];

/** git's verdict on each name (`git check-ref-format --branch`), in one shell. */
function gitAccepts(names: readonly string[]): boolean[] {
  const run = spawnSync(
    "bash",
    [
      "-c",
      'while IFS= read -r -d "" n; do if git check-ref-format --branch "$n" >/dev/null 2>&1; then echo 1; else echo 0; fi; done',
    ],
    { input: names.map((n) => `${n}\0`).join(""), encoding: "utf8", cwd: "/" },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout
    .trim()
    .split("\n")
    .map((v) => v === "1");
}

/**
 * What the pattern must say: git's verdict, less the two names git's `--branch` expands
 * instead of checking (`@` is HEAD) and names with `{`, the one stricter rule.
 */
function expected(names: readonly string[]): boolean[] {
  return gitAccepts(names).map((ok, i) => ok && names[i] !== "@" && !names[i].includes("{"));
}

/** Random names over the characters git's rules are about, with a fixed seed. */
function randomNames(count: number): string[] {
  const alphabet = [
    "a",
    "b",
    "H",
    "E",
    "A",
    "D",
    "l",
    "o",
    "c",
    "k",
    ".",
    "/",
    "-",
    "@",
    "{",
    "~",
    " ",
    "\n",
    "é",
    "x",
  ];
  let seed = 43;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  return Array.from({ length: count }, () => {
    const length = 1 + (next() % 9);
    return Array.from({ length }, () => alphabet[next() % alphabet.length]).join("");
  }).concat(["HEAD", "lock", "x.lock", "a/lock", "a/b.lock/c", "HEA", "HEADx", "@.x"]);
}

it("accepts exactly the branch names git accepts, hostile ones named", () => {
  const pattern = new RegExp(GIT_BRANCH_PATTERN);
  const want = expected(NAMED);
  const verdicts = NAMED.map((name) => [name, pattern.test(name)]);
  expect(verdicts).toEqual(NAMED.map((name, i) => [name, want[i]]));
  // The attacks of issue 43.8 among them.
  expect(pattern.test("--upload-pack=touch /tmp/pwned")).toBe(false);
  expect(pattern.test("main\n--upload-pack=x")).toBe(false);
});

it("agrees with git check-ref-format on 600 random names", () => {
  const names = randomNames(600);
  const pattern = new RegExp(GIT_BRANCH_PATTERN);
  const want = expected(names);
  const disagreements = names.filter((name, i) => pattern.test(name) !== want[i]);
  expect(disagreements).toEqual([]);
  // The sample holds both verdicts in numbers.
  expect(want.filter(Boolean).length).toBeGreaterThan(100);
  expect(want.filter((ok) => !ok).length).toBeGreaterThan(100);
});

it("says the same in Terraform's RE2 (Coder's Go) as in JavaScript", async () => {
  const values = [...NAMED, ...randomNames(60)];
  const js = values.map((v) => new RegExp(GIT_BRANCH_PATTERN).test(v));
  const plan = await planExpressions(
    (stack) => {
      values.forEach((_, i) => {
        const v = new TerraformVariable(stack, `b${i}`, { type: "string" });
        new TerraformOutput(stack, `ok${i}`, {
          value: hcl`can(regex(${GIT_BRANCH_PATTERN}, ${v.stringValue}))`,
        });
      });
    },
    Object.fromEntries(values.map((v, i) => [`b${i}`, v])),
  );
  expect(values.map((_, i) => plan.values[`ok${i}`])).toEqual(js);
});
