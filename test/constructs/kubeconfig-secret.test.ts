/**
 * KubeconfigSecret: a Secret holding a kubeconfig for one token identity, rendered with
 * yamlencode at apply time, so the token only ever lives in sensitive Secret data.
 */
import { parse } from "yaml";
import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { KubeconfigSecret, KUBECONFIG_SECRET_KEY } from "../../lib/constructs/kubeconfig-secret";
import type { TemplateStack } from "../../lib/constructs/template-stack";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { synthConstruct, synthConstructToDir } from "./construct-stack";

const META = { labels: { "app.kubernetes.io/name": "coder-kubeconfig" }, annotations: {} };
const TOKEN = "fixture-token-do-not-leak";
const CA = "-----BEGIN CERTIFICATE-----\nMIIBfixture\n-----END CERTIFICATE-----\n";

/** The Secret on an aliased provider, with the token and CA from (sensitive) variables. */
function buildSecret(
  stack: TemplateStack,
  extra: { clusterName?: string; userName?: string } = {},
) {
  const target = new KubernetesProvider(stack, "target", { alias: "target" });
  const token = new TerraformVariable(stack, "token", { type: "string", sensitive: true });
  const ca = new TerraformVariable(stack, "ca", { type: "string" });
  return new KubeconfigSecret(stack, "kubeconfig", {
    provider: target,
    name: "ws-kubeconfig",
    namespace: "ns",
    meta: META,
    server: "https://harvester.example.com/k8s/clusters/local",
    caCertificate: ca.stringValue,
    token: token.stringValue,
    defaultNamespace: "builds",
    ...extra,
  });
}

it("is an Opaque kubernetes_secret_v1 on the given provider, its kubeconfig under one key", () => {
  const tf = synthConstruct((stack) => {
    buildSecret(stack);
  });
  const secret = tf.resource.kubernetes_secret_v1.kubeconfig;
  expect(secret.provider).toBe("kubernetes.target");
  expect(secret.type).toBe("Opaque");
  expect(secret.metadata).toMatchObject({
    name: "ws-kubeconfig",
    namespace: "ns",
    labels: META.labels,
  });
  expect(Object.keys(secret.data)).toEqual([KUBECONFIG_SECRET_KEY]);
  // Rendered by Terraform from references: the token is never a literal in the template.
  expect(secret.data.config).toMatch(/^\$\{yamlencode\(\{.*\}\)\}$/);
  expect(secret.data.config).toContain('"token" = var.token');
  expect(secret.data.config).toContain(
    'var.ca == "" ? {} : { "certificate-authority-data" = base64encode(var.ca) }',
  );
});

it("uses only references in its metadata: the token reaches nothing but the data", () => {
  const tf = synthConstruct((stack) => {
    buildSecret(stack);
  });
  const { data, ...rest } = tf.resource.kubernetes_secret_v1.kubeconfig;
  expect(JSON.stringify(data)).toContain("var.token");
  expect(JSON.stringify(rest)).not.toContain("var.token");
});

it("plans a kubeconfig with one cluster, user and context; the data is sensitive", async () => {
  const synthesized = synthConstructToDir((stack) => {
    buildSecret(stack, { clusterName: "harvester", userName: "builder" });
  });
  const harness = await TerraformHarness.start();
  try {
    const plan = await harness.plan(synthesized.dir, { variables: { token: TOKEN, ca: CA } });
    const secret = plan.resource("kubernetes_secret_v1.kubeconfig");
    expect(secret.afterSensitive.data).toBe(true);
    const config = parse((secret.after.data as Record<string, string>)[KUBECONFIG_SECRET_KEY]);
    expect(config).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: "harvester",
          cluster: {
            server: "https://harvester.example.com/k8s/clusters/local",
            "certificate-authority-data": Buffer.from(CA).toString("base64"),
          },
        },
      ],
      users: [{ name: "builder", user: { token: TOKEN } }],
      contexts: [
        {
          name: "builder",
          context: { cluster: "harvester", user: "builder", namespace: "builds" },
        },
      ],
      "current-context": "builder",
    });
  } finally {
    await harness.stop();
    synthesized.cleanup();
  }
});

it("gives the Secret's name as a reference, so a pod mounting it waits for it", () => {
  const tf = synthConstruct((stack) => {
    new TerraformOutput(stack, "name", { value: buildSecret(stack).secretName });
  });
  expect(tf.output.name.value).toBe("${kubernetes_secret_v1.kubeconfig.metadata[0].name}");
});
