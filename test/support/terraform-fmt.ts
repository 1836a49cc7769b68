/** `terraform fmt -check -diff` of HCL text, for tests that hold generated files to its layout. */
import { spawnSync } from "node:child_process";
import { terraformEnvironment } from "@coder-cdktf/terraform-harness/src/terraform-cli";

/** What `terraform fmt -check -diff -` says of `text`: its output (empty when formatted) and exit status. */
export function terraformFmtCheck(text: string): { output: string; status: number | null } {
  const run = spawnSync("terraform", ["fmt", "-check", "-diff", "-"], {
    input: text,
    encoding: "utf8",
    env: terraformEnvironment(),
  });
  return { output: run.stdout + run.stderr, status: run.status };
}
