/**
 * workspaceObjectMeta: Coder's standard labels for a workspace's Kubernetes objects, and the
 * owner's e-mail as an annotation (it is not a valid label value).
 */
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { ConfigMapV1 } from "@cdktf/provider-kubernetes/lib/config-map-v1";
import { coderProvider } from "../../lib/constructs/providers";
import type { TemplateStack } from "../../lib/constructs/template-stack";
import { WorkspaceData } from "../../lib/constructs/workspace-data";
import { workspaceObjectMeta } from "../../lib/constructs/workspace-labels";
import { DEFAULT_OWNER, DEFAULT_WORKSPACE, TerraformHarness } from "@coder-cdktf/terraform-harness";
import { synthConstruct, synthConstructToDir } from "./construct-stack";

/** Kubernetes' rule for label values: at most 63 characters, alphanumeric at both ends. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** A ConfigMap that carries the metadata, so that it is synthesized and planned. */
function buildLabelled(stack: TemplateStack): void {
  coderProvider(stack);
  new KubernetesProvider(stack, "kubernetes", {});
  const ws = new WorkspaceData(stack, "workspace");
  const meta = workspaceObjectMeta(ws, "pvc");
  new ConfigMapV1(stack, "labelled", {
    metadata: { name: "x", namespace: "ns", labels: meta.labels, annotations: meta.annotations },
  });
}

it("names the component in app.kubernetes.io/name and instance, and ids the workspace and owner", () => {
  const tf = synthConstruct(buildLabelled);
  const { labels, annotations } = tf.resource.kubernetes_config_map_v1.labelled.metadata;
  expect(labels).toEqual({
    "app.kubernetes.io/name": "coder-pvc",
    "app.kubernetes.io/instance": "coder-pvc-${data.coder_workspace.me.id}",
    "app.kubernetes.io/part-of": "coder",
    "com.coder.resource": "true",
    "com.coder.workspace.id": "${data.coder_workspace.me.id}",
    "com.coder.workspace.name": "${data.coder_workspace.me.name}",
    "com.coder.user.id": "${data.coder_workspace_owner.me.id}",
    "com.coder.user.username": "${data.coder_workspace_owner.me.name}",
  });
  expect(annotations).toEqual({ "com.coder.user.email": "${data.coder_workspace_owner.me.email}" });
  expect(JSON.stringify(labels)).not.toContain("email");
});

it("plans to valid Kubernetes label values for a workspace", async () => {
  const synthesized = synthConstructToDir(buildLabelled);
  const harness = await TerraformHarness.start();
  try {
    const plan = await harness.plan(synthesized.dir);
    const [metadata] = plan.resource("kubernetes_config_map_v1.labelled").after.metadata as any[];
    expect(metadata.labels["app.kubernetes.io/instance"]).toBe(`coder-pvc-${DEFAULT_WORKSPACE.id}`);
    expect(metadata.labels["com.coder.user.username"]).toBe(DEFAULT_OWNER.name);
    for (const value of Object.values(metadata.labels as Record<string, string>)) {
      expect(value.length).toBeLessThanOrEqual(63);
      expect(value).toMatch(LABEL_VALUE);
    }
    expect(metadata.annotations).toEqual({ "com.coder.user.email": DEFAULT_OWNER.email });
  } finally {
    await harness.stop();
    synthesized.cleanup();
  }
});
