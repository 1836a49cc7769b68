/**
 * jest setupFiles: tells the plan harness (@coder-cdktf/terraform-harness, a package that
 * imports nothing of the project) what the project's synth writes beside cdk.tf.json, so that
 * planExpressions plans a stack as a template ships it: the shipped files and the HCL files,
 * and how it reads a stack folder's whole configuration (app/harness-configuration.ts).
 * Loaded lazily: test files that never synthesize do not pay for it. And it hands the harness
 * the worker's shared mock provider process (shared-mock-environment.ts), when the test file
 * runs in that environment. With CODER_CDKTF_PROVIDER_RELEASE=oldest every plan is checked
 * against the oldest provider releases its template's bounds admit (provider-releases.ts).
 */
import { setStackFiles } from "@coder-cdktf/terraform-harness/src/plan-expressions";
import { useStackConfigurations } from "../../app/harness-configuration";
import { setSchemaFilesSelector } from "@coder-cdktf/terraform-harness/src/terraform-harness";
import {
  SHARED_MOCK_GLOBAL,
  setSharedMockProvider,
  type SharedMockProvider,
} from "@coder-cdktf/terraform-harness/src/shared-mock";

setStackFiles(async (stack, dir) => {
  const { writeShippedFiles } = await import("../../lib/core/shipped-file");
  const { writeHclFiles } = await import("../../lib/private/hcl-files");
  writeShippedFiles(stack, dir);
  writeHclFiles(dir);
});

// The variables and module calls of a stack's main.tf, which the harness does not parse.
useStackConfigurations();

setSharedMockProvider(
  (globalThis as { [SHARED_MOCK_GLOBAL]?: SharedMockProvider })[SHARED_MOCK_GLOBAL],
);

if (process.env.CODER_CDKTF_PROVIDER_RELEASE === "oldest") {
  setSchemaFilesSelector((dir) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const releases = require("./provider-releases") as typeof import("./provider-releases");
    return releases.schemaFilesForDir(dir, "oldest");
  });
}
