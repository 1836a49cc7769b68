/**
 * lib/core/moved.ts: the JSON it writes, its misuse errors, and proof with the real Terraform CLI
 * (mock providers) that a moved block keeps a renamed PVC instead of replacing it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { App, TerraformVariable } from "../../lib/core/cdk";
import { TemplateStack } from "../../lib/constructs/template-stack";
import {
  coderProvider,
  useKubeconfigVariable,
  workspaceClusterProvider,
} from "../../lib/constructs/providers";
import { DataVolume } from "../../lib/constructs/data-volume";
import { WorkspaceData } from "../../lib/constructs/workspace-data";
import { workspaceObjectMeta } from "../../lib/constructs/workspace-labels";
import { MovedBlock, movedFrom } from "../../lib/core/moved";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";

jest.setTimeout(120_000);

const FRONT = { displayName: "T", description: "d", icon: "/icon/k8s.png" };

interface Synthesized {
  readonly dir: string;
  readonly config: Record<string, unknown>;
}

const outdirs: string[] = [];
afterAll(() => outdirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A template with one PVC named `volumeId`, optionally declaring where it used to live. */
function volumeTemplate(volumeId: string, from: readonly string[] = []): Synthesized {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "moved-"));
  outdirs.push(outdir);
  const app = new App({ outdir });
  const stack = new TemplateStack(app, "t", {
    sourceDir: "templates/kubernetes",
    frontMatter: FRONT,
  });
  const useKubeconfig = useKubeconfigVariable(stack);
  const namespace = new TerraformVariable(stack, "namespace", { type: "string", default: "ws" });
  coderProvider(stack);
  workspaceClusterProvider(stack, useKubeconfig);
  const ws = new WorkspaceData(stack, "workspace");
  const volume = new DataVolume(stack, volumeId, {
    name: `coder-${ws.id}-home`,
    namespace: namespace.stringValue,
    size: "10Gi",
    meta: workspaceObjectMeta(ws, "pvc"),
  });
  if (from.length > 0) movedFrom(volume.claim, ...from);
  app.synth();
  const dir = path.join(outdir, "stacks", "t");
  return { dir, config: JSON.parse(fs.readFileSync(path.join(dir, "cdk.tf.json"), "utf8")) };
}

describe("movedFrom", () => {
  it("writes one moved block per old address", () => {
    const { config } = volumeTemplate("data", [
      "kubernetes_persistent_volume_claim_v1.home",
      "kubernetes_persistent_volume_claim_v1.scratch",
    ]);
    expect(config.moved).toEqual([
      {
        from: "kubernetes_persistent_volume_claim_v1.home",
        to: "kubernetes_persistent_volume_claim_v1.data",
      },
      {
        from: "kubernetes_persistent_volume_claim_v1.scratch",
        to: "kubernetes_persistent_volume_claim_v1.data",
      },
    ]);
  });

  it("rejects a move between resource types, a data source, and a move to itself", () => {
    const app = new App({ outdir: os.tmpdir() });
    const stack = new TemplateStack(app, "t", {
      sourceDir: "templates/kubernetes",
      frontMatter: FRONT,
    });
    const ws = new WorkspaceData(stack, "workspace");
    const volume = new DataVolume(stack, "data", {
      name: "n",
      namespace: "ns",
      size: "1Gi",
      meta: workspaceObjectMeta(ws, "pvc"),
    });
    expect(() => movedFrom(volume.claim, "kubernetes_secret_v1.home")).toThrow(
      /cannot move kubernetes_secret_v1\.home to a kubernetes_persistent_volume_claim_v1/,
    );
    expect(() => movedFrom(volume.claim, "data.coder_workspace.me")).toThrow(
      /not a resource address/,
    );
    const self = new MovedBlock(stack, "self", {
      from: "kubernetes_persistent_volume_claim_v1.data",
      to: volume.claim,
    });
    expect(() => self.toTerraform()).toThrow(/to itself/);
  });
});

describe("a renamed PVC, planned by Terraform on top of an existing workspace's state", () => {
  let tf: TerraformHarness;
  beforeAll(async () => (tf = await TerraformHarness.start()));
  afterAll(() => tf.stop());

  it("is kept with a moved block, and destroyed without one", async () => {
    const before = volumeTemplate("home");
    const applied = await tf.apply(before.dir);
    expect(applied.resources.map((r) => r.address)).toContain(
      "kubernetes_persistent_volume_claim_v1.home",
    );

    const withMove = await tf.plan(
      volumeTemplate("data", ["kubernetes_persistent_volume_claim_v1.home"]).dir,
      {
        state: applied,
      },
    );
    const change = withMove.resource("kubernetes_persistent_volume_claim_v1.data");
    expect(change.actions).toEqual(["no-op"]);
    const raw = (withMove.raw.resource_changes as Record<string, unknown>[]).find(
      (c) => c.address === "kubernetes_persistent_volume_claim_v1.data",
    );
    expect(raw?.previous_address).toBe("kubernetes_persistent_volume_claim_v1.home");

    const withoutMove = await tf.plan(volumeTemplate("data").dir, { state: applied });
    expect(withoutMove.resource("kubernetes_persistent_volume_claim_v1.home").actions).toEqual([
      "delete",
    ]);
    expect(withoutMove.resource("kubernetes_persistent_volume_claim_v1.data").actions).toEqual([
      "create",
    ]);
  });
});
