/**
 * jest setupFiles: tells the plan harness (@coder-cdktf/terraform-harness, a package that
 * imports nothing of the project) what the project's synth writes beside cdk.tf.json, so that
 * planExpressions plans a stack as a template ships it: the shipped files and the HCL files.
 * Loaded lazily: test files that never synthesize do not pay for it.
 */
import { setStackFiles } from "@coder-cdktf/terraform-harness/src/plan-expressions";

setStackFiles(async (stack, dir) => {
  const { writeShippedFiles } = await import("../../src/core/shipped-file");
  const { writeHclFiles } = await import("../../src/private/hcl-files");
  writeShippedFiles(stack, dir);
  writeHclFiles(dir);
});
