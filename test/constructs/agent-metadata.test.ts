/**
 * Agent metadata presets: the live stats on the workspace page. Keys order the items in the
 * UI, and shell expansions in the scripts must reach the agent unevaluated by Terraform.
 */
import { execFileSync } from "node:child_process";
import { TerraformOutput } from "../../lib/core/cdk";
import {
  cpuUsage,
  diskUsage,
  hostLoadAverage,
  item,
  ramUsage,
  standardMetadata,
} from "../../lib/constructs/agent-metadata";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { synthConstruct } from "./construct-stack";

it("standardMetadata lists six items whose keys sort in the order they are listed", () => {
  const items = standardMetadata("Home Disk");
  const keys = items.map((m) => m.key);
  expect(keys).toHaveLength(6);
  expect(new Set(keys).size).toBe(6);
  // Coder orders metadata by key, so the keys must sort in the intended order.
  expect([...keys].sort()).toEqual(keys);
  expect(items.map((m) => m.displayName)).toEqual([
    "CPU Usage",
    "RAM Usage",
    "Home Disk",
    "CPU Usage (Host)",
    "Memory Usage (Host)",
    "Load Average (Host)",
  ]);
});

it("gives every item a 1 s timeout, shorter than its interval", () => {
  for (const m of [...standardMetadata("Disk"), item("X", "x", "true", 5)]) {
    expect(m.timeout).toBe(1);
    expect(m.interval).toBeGreaterThan(m.timeout as number);
  }
});

it("takes custom keys, so a template can place an item elsewhere in the list", () => {
  expect(cpuUsage("a_cpu").key).toBe("a_cpu");
  expect(ramUsage("b_ram").key).toBe("b_ram");
  expect(diskUsage("Data", "/data", "c_disk").key).toBe("c_disk");
});

it("writes the disk path's ${HOME} as $${HOME}, so Terraform leaves it to the shell", () => {
  const tf = synthConstruct((stack) => {
    new TerraformOutput(stack, "script", { value: diskUsage("Home").script });
  });
  expect(tf.output.script.value).toBe("coder stat disk --path $${HOME}");
  expect(diskUsage("Data", "/data").script).toBe("coder stat disk --path /data");
});

it("reaches the agent as the literal shell text after Terraform evaluates the string", async () => {
  const plan = await planExpressions((stack) => {
    new TerraformOutput(stack, "disk", { value: diskUsage("Home").script });
    new TerraformOutput(stack, "load", { value: hostLoadAverage().script });
  });
  expect(plan.values.disk).toBe("coder stat disk --path ${HOME}");
  expect(plan.values.load).toBe(hostLoadAverage().script);
});

it("computes the host load per core with two decimals", () => {
  const output = execFileSync("sh", ["-c", hostLoadAverage().script], { encoding: "utf8" });
  expect(output).toMatch(/^\d+\.\d\d$/);
});
