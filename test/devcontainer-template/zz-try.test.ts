import { cpSync, rmSync } from "node:fs";
import { TerraformHarness, TerraformError } from "../harness";
import { synthesizeDevcontainer, REQUIRED_VARIABLES, REPOSITORY, devcontainerFixtures } from "./synthesized";

jest.setTimeout(120000);
it("plans", async () => {
  const tf = await TerraformHarness.start();
  const s = synthesizeDevcontainer();
  rmSync("/tmp/dcsynth", { recursive: true, force: true });
  cpSync(s.dir, "/tmp/dcsynth", { recursive: true });
  try {
    const stopped = await tf.plan(s.dir, { variables: REQUIRED_VARIABLES, parameters: { repository: REPOSITORY }, workspace: { startCount: 0 } });
    console.log(stopped.addresses());
    const started = await tf.plan(s.dir, { variables: REQUIRED_VARIABLES, parameters: { repository: REPOSITORY }, fixtures: devcontainerFixtures({}) });
    console.log(started.addresses(), started.warnings);
  } catch (e) {
    if (e instanceof TerraformError) console.log(JSON.stringify((e as any).diagnostics, null, 1));
    throw e;
  } finally {
    await tf.stop();
    s.cleanup();
  }
});
