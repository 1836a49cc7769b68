import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformHarness } from "../src/index";
import { RUN_CACHE_ENV, RunCache } from "../src/run-cache";

const MOCK_TEMPLATE = join(__dirname, "testdata", "mock-template");

const scratch: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("RunCache keys", () => {
  const cache = RunCache.at("/nonexistent");
  const template = () => {
    const dir = tempDir("run-cache-key-");
    cpSync(MOCK_TEMPLATE, dir, { recursive: true });
    return dir;
  };

  it("are equal for the same operation, files and inputs", () => {
    const [a, b] = [template(), template()];
    expect(cache.key("plan", a, { x: 1 })).toBe(cache.key("plan", b, { x: 1 }));
  });

  it("differ when a file, the inputs or the operation differ", () => {
    const dir = template();
    const before = cache.key("plan", dir, { x: 1 });
    expect(cache.key("plan", dir, { x: 2 })).not.toBe(before);
    expect(cache.key("apply", dir, { x: 1 })).not.toBe(before);
    writeFileSync(join(dir, "extra.tf.json"), "{}");
    expect(cache.key("plan", dir, { x: 1 })).not.toBe(before);
  });

  it("ignore an earlier run's init, state and plan", () => {
    const dir = template();
    const before = cache.key("plan", dir, {});
    mkdirSync(join(dir, ".terraform", "modules"), { recursive: true });
    writeFileSync(join(dir, ".terraform", "modules", "modules.json"), "{}");
    writeFileSync(join(dir, "terraform.tfstate"), "{}");
    writeFileSync(join(dir, "tfplan"), "plan");
    expect(cache.key("plan", dir, {})).toBe(before);
  });
});

describe("RunCache entries", () => {
  it("are shared by every cache on the directory, and computed only once", async () => {
    const dir = join(tempDir("run-cache-"), "runs");
    const compute = jest.fn(async () => ({ planned: ["a"] }));
    await expect(RunCache.at(dir).getOrCompute("k", compute)).resolves.toEqual({ planned: ["a"] });
    const again = await RunCache.at(dir).getOrCompute("k", compute);
    expect(again).toEqual({ planned: ["a"] });
    expect(compute).toHaveBeenCalledTimes(1);
    expect(RunCache.at(dir).get("other")).toBeUndefined();
  });

  it("are not kept for a failed computation", async () => {
    const dir = join(tempDir("run-cache-"), "runs");
    await expect(
      RunCache.at(dir).getOrCompute("k", () => Promise.reject(new Error("plan failed"))),
    ).rejects.toThrow("plan failed");
    expect(RunCache.at(dir).get("k")).toBeUndefined();
  });
});

describe("TerraformHarness in a jest run", () => {
  const saved = { path: process.env.PATH, cache: process.env[RUN_CACHE_ENV] };
  let tf: TerraformHarness;
  let log: string;

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    // A terraform first on PATH that records each command, then runs the real one.
    const bin = tempDir("run-cache-bin-");
    log = join(bin, "commands.log");
    const real = execFileSync("bash", ["-c", "command -v terraform"], { encoding: "utf8" }).trim();
    writeFileSync(
      join(bin, "terraform"),
      `#!/bin/bash\necho "$1" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(real)} "$@"\n`,
    );
    chmodSync(join(bin, "terraform"), 0o755);
    process.env.PATH = `${bin}:${saved.path}`;
    process.env[RUN_CACHE_ENV] = join(tempDir("run-cache-"), "runs");
  });
  afterAll(async () => {
    process.env.PATH = saved.path;
    if (saved.cache === undefined) delete process.env[RUN_CACHE_ENV];
    else process.env[RUN_CACHE_ENV] = saved.cache;
    await tf?.stop();
  });

  const commands = () => readFileSync(log, "utf8").trim().split("\n");
  const options = (namespace: string) => ({
    variables: { namespace },
    fixtures: {
      data_sources: { devcontainerbuilder_devcontainer: { remote_user: "vscode" } },
    },
  });

  it("runs an identical plan or apply once, and any other one again", async () => {
    const first = await tf.plan(MOCK_TEMPLATE, options("coder"));
    const second = await tf.plan(MOCK_TEMPLATE, options("coder"));
    expect(second.raw.planned_values).toEqual(first.raw.planned_values);
    expect(second.resourceChanges).toEqual(first.resourceChanges);
    expect(commands().filter((c) => c === "plan")).toHaveLength(1);

    const other = await tf.plan(MOCK_TEMPLATE, options("other"));
    expect(commands().filter((c) => c === "plan")).toHaveLength(2);
    expect(other.raw.planned_values).not.toEqual(first.raw.planned_values);

    const applied = await tf.apply(MOCK_TEMPLATE, options("coder"));
    const reapplied = await tf.apply(MOCK_TEMPLATE, options("coder"));
    expect(reapplied).toEqual(applied);
    expect(commands().filter((c) => c === "apply")).toHaveLength(1);
  });

  it("plans once for planAndApply, and later plan and apply calls read its two halves", async () => {
    const runs = () => commands().filter((c) => c === "plan" || c === "apply");
    const before = runs().length;
    const { plan, applied } = await tf.planAndApply(MOCK_TEMPLATE, options("both"));
    // One plan, and the apply of the saved plan (no second plan inside the apply).
    expect(runs().slice(before)).toEqual(["plan", "apply"]);
    expect(applied.resources.filter((r) => r.mode === "managed").map((r) => r.address)).toEqual(
      plan.resourceChanges
        .filter((r) => r.mode === "managed" && r.actions.includes("create"))
        .map((r) => r.address),
    );
    const replanned = await tf.plan(MOCK_TEMPLATE, options("both"));
    const reapplied = await tf.apply(MOCK_TEMPLATE, options("both"));
    expect(replanned.resourceChanges).toEqual(plan.resourceChanges);
    expect(reapplied).toEqual(applied);
    expect(runs().slice(before)).toHaveLength(2);
  });

  it("gives from planAndApply what a plan and an apply of their own give", async () => {
    const { plan, applied } = await tf.planAndApply(MOCK_TEMPLATE, options("compared"));
    // A fresh cache: the plan and the apply below run Terraform themselves.
    process.env[RUN_CACHE_ENV] = join(tempDir("run-cache-"), "runs");
    const alone = await tf.plan(MOCK_TEMPLATE, options("compared"));
    const appliedAlone = await tf.apply(MOCK_TEMPLATE, options("compared"));
    expect(plan.resourceChanges).toEqual(alone.resourceChanges);
    expect(plan.warnings).toEqual(alone.warnings);
    // The uids the mock's "API server" assigns differ between two applies, as real ones do.
    const values = (result: typeof applied) =>
      result.resources.map((r) => [
        r.address,
        JSON.parse(
          JSON.stringify(r.values).replace(/"uid":"[0-9a-f-]{36}"/g, '"uid":"(server-assigned)"'),
        ),
      ]);
    expect(values(applied)).toEqual(values(appliedAlone));
    expect(applied.outputs).toEqual(appliedAlone.outputs);
    expect(applied.warnings).toEqual(appliedAlone.warnings);
  });
});
