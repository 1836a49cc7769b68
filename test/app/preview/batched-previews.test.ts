/**
 * The preview tests' batching (batched-previews.ts) gives each preview exactly what its own
 * apply gives: previews that differ in metadata, variables, parameters and warnings, applied
 * in one batch, read back equal to `PreviewSession.firstStart` of each alone; previews that
 * cannot be told apart in one batch get batches of their own; a failing batch falls back to
 * one apply per preview, so that each shows its own error.
 */
import { TerraformError } from "@coder-cdktf/terraform-harness";
import { deriveMetadata } from "../../../app/preview/devcontainer-metadata";
import type { PlanView } from "../../../app/preview/workspace-report";
import { PreviewSession } from "../../../cli/run-preview";
import { BatchedFirstStarts } from "./batched-previews";

jest.setTimeout(60000);

let session: PreviewSession;
beforeAll(async () => {
  session = await PreviewSession.start();
});
afterAll(() => session?.close());

const REQUIRED = {
  namespace: "coder-workspaces",
  devcontainer_builder_endpoint: "http://devcontainer-builder.invalid:8080",
};
const IMAGE = "mcr.microsoft.com/devcontainers/base:bookworm";

/** A first start as runPreview asks for one. */
function start(
  repoName: string,
  config: Record<string, unknown>,
  variables: Record<string, string> = {},
  parameters: Record<string, string> = {},
) {
  return [
    deriveMetadata(config).values,
    { ...REQUIRED, ...variables },
    { repository: `https://git.example.com/${repoName}.git`, ...parameters },
    repoName,
  ] as const;
}

/** A first start's view without what differs between any two applies (terraform_data ids). */
function comparable(view: PlanView): PlanView {
  return {
    ...view,
    resourceChanges: view.resourceChanges.map((r) =>
      /(^|\.)terraform_data\./.test(r.address)
        ? { ...r, after: { ...r.after, id: "(random)" } }
        : r,
    ),
  };
}

const PTRACE = { image: IMAGE, capAdd: ["CHOWN"], runArgs: ["--cap-add=SYS_PTRACE"] };

it("reads each instance of a batch back as the apply of that preview alone", async () => {
  const cases = [
    // a failed check (a build-log warning) and a lacking Dev Container variable
    start("alpha", { ...PTRACE, containerEnv: { T: "${localEnv:TOKEN}" } }),
    // the same metadata with other variables and parameters: no warning, the variable set
    start(
      "beta",
      { ...PTRACE, containerEnv: { T: "${localEnv:TOKEN}" } },
      { allow_privileged: "true", pod_security_level: "restricted" },
      { devcontainer_variables: "TOKEN=x", cpu: "4" },
    ),
    // another repository name and user, and the same name again with other metadata, which
    // the data source could not tell apart: a second batch
    start("gamma", { image: IMAGE, remoteUser: "vscode", forwardPorts: [3000] }),
    start("alpha", { image: IMAGE, remoteUser: "vscode" }),
  ];
  const batched = new BatchedFirstStarts(session);
  try {
    const together = await Promise.all(cases.map((c) => batched.firstStart(...c)));
    expect(batched.applies).toEqual([{ instances: 3 }, { instances: 1 }]);
    // Asked for again (a preview's --json after its text): no apply.
    await batched.firstStart(...cases[0]);
    expect(batched.applies).toHaveLength(2);
    for (const [n, c] of cases.entries()) {
      expect(comparable(together[n])).toEqual(comparable(await session.firstStart(...c)));
    }
    // The cases differ where the batch could have mixed them up.
    const env = (n: number, name: string) =>
      together[n].resourceChanges
        .filter((r) => r.address.startsWith("coder_env."))
        .find((r) => r.after.name === name)?.after.value;
    // alpha: the capability and the variable checks; beta: restricted with a root user
    expect(together.map((view) => view.warnings.length)).toEqual([2, 1, 0, 0]);
    expect(together.map((view) => view.outputs.preview_pod_security_requested?.value)).toEqual([
      "baseline",
      "restricted",
      "baseline",
      "baseline",
    ]);
    expect(together.map((view) => view.outputs.preview_missing_variables?.value)).toEqual([
      ["TOKEN"],
      [],
      [],
      [],
    ]);
    expect(env(0, "DEVCONTAINER_BRANCH")).toBe("main");
    const folder = (n: number) => {
      const deployment = together[n].resourceChanges.find(
        (r) => r.address === "kubernetes_deployment_v1.main[0]",
      )?.after as { spec: { template: { spec: { container: { env: object[] }[] }[] }[] }[] };
      return deployment.spec[0].template[0].spec[0].container[0].env;
    };
    expect(JSON.stringify(folder(1))).toContain("/workspaces/beta");
    expect(JSON.stringify(folder(2))).toContain("/home/vscode");
    expect(JSON.stringify(folder(0))).not.toContain("/home/vscode");
  } finally {
    batched.close();
  }
});

it("falls back to one apply per preview when the batch fails, each with its own result", async () => {
  const good = start("good", PTRACE);
  const bad = start("bad", PTRACE, { max_cpu: "not-a-number" });
  const batched = new BatchedFirstStarts(session);
  try {
    const [fine, failed] = await Promise.allSettled([
      batched.firstStart(...good),
      batched.firstStart(...bad),
    ]);
    expect(batched.applies).toEqual([{ instances: 2 }, { instances: 1 }, { instances: 1 }]);
    expect(fine.status).toBe("fulfilled");
    expect(comparable((fine as PromiseFulfilledResult<PlanView>).value)).toEqual(
      comparable(await session.firstStart(...good)),
    );
    expect(failed.status).toBe("rejected");
    const reason = (failed as PromiseRejectedResult).reason as Error;
    expect(reason).toBeInstanceOf(TerraformError);
    expect(reason.message).toMatch(/max_cpu/);
    // Terraform's own message, as the preview alone gets it (the first line names a temp dir).
    const error = (e: Error) => e.message.split("\n").slice(1).join("\n");
    expect(error(reason)).toMatch(/Error: Invalid value for input variable/);
    const alone = await session.firstStart(...bad).catch((e: Error) => e);
    expect(alone).toBeInstanceOf(TerraformError);
    expect(error(alone as Error)).toBe(error(reason));
  } finally {
    batched.close();
  }
});
