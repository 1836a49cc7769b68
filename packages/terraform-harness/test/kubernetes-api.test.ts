/**
 * The harness's Kubernetes API validation step (kubernetes-api.ts) and Pod Security levels
 * (pod-security.ts): each API server rule rejects a bad planned object and accepts a good
 * one; each level is told apart; a plan that breaks a rule fails through the harness.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { KubernetesApiError, PlanResult, TerraformHarness } from "../src";
import { API_OBJECT_RULES } from "../src/kubernetes-api";
import { destructiveChanges, expectNoReplace } from "../src/plan-changes";

type Obj = Record<string, unknown>;

/** A plan with one created resource. */
function planOf(type: string, after: Obj, afterUnknown: Obj = {}): PlanResult {
  return new PlanResult(
    {
      resource_changes: [
        {
          address: `${type}.x`,
          mode: "managed",
          type,
          name: "x",
          change: { actions: ["create"], after, after_unknown: afterUnknown },
        },
      ],
    },
    [],
  );
}

const RESTRICTED_CONTEXT = {
  allow_privilege_escalation: false,
  privileged: false,
  read_only_root_filesystem: false,
  run_as_non_root: true,
  capabilities: [{ add: [], drop: ["ALL"] }],
  seccomp_profile: [{ type: "RuntimeDefault" }],
};

function container(fields: Obj = {}): Obj {
  return {
    name: "dev",
    image: "img",
    env: [{ name: "HOME", value: "/home/dev" }],
    resources: [{ requests: { cpu: "250m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } }],
    security_context: [RESTRICTED_CONTEXT],
    volume_mount: [{ name: "home", mount_path: "/home/dev", sub_path: "" }],
    ...fields,
  };
}

function deployment(pod: Obj = {}, meta: Obj = {}): Obj {
  const labels = { "app.kubernetes.io/name": "ws" };
  return {
    metadata: [{ name: "coder-ws", namespace: "coder", labels, annotations: {}, ...meta }],
    spec: [
      {
        selector: [{ match_labels: labels }],
        template: [
          {
            metadata: [{ labels }],
            spec: [
              {
                container: [container()],
                volume: [{ name: "home", persistent_volume_claim: [{ claim_name: "home" }] }],
                toleration: [],
                node_selector: { "kubernetes.io/arch": "amd64" },
                security_context: [{ run_as_non_root: true, run_as_user: "1000" }],
                ...pod,
              },
            ],
          },
        ],
      },
    ],
  };
}

const messages = (plan: PlanResult) => plan.kubernetesApi().violations.map((v) => v.message);

describe("Kubernetes API validation of planned objects", () => {
  it("accepts a good Deployment, PVC, Secret, ServiceAccount and RoleBinding", () => {
    expect(messages(planOf("kubernetes_deployment_v1", deployment()))).toEqual([]);
    expect(
      messages(
        planOf("kubernetes_persistent_volume_claim_v1", {
          metadata: [{ name: "home", namespace: "coder" }],
          spec: [
            { access_modes: ["ReadWriteOnce"], resources: [{ requests: { storage: "10Gi" } }] },
          ],
        }),
      ),
    ).toEqual([]);
    expect(
      messages(
        planOf("kubernetes_secret_v1", {
          metadata: [{ name: "kubeconfig", namespace: "coder" }],
          data: { "config.yaml": "x" },
        }),
      ),
    ).toEqual([]);
    expect(
      messages(
        planOf("kubernetes_role_binding_v1", {
          metadata: [{ name: "rb", namespace: "coder" }],
          role_ref: [{ kind: "ClusterRole", name: "edit", api_group: "rbac.authorization.k8s.io" }],
          subject: [{ kind: "ServiceAccount", name: "ws", namespace: "coder" }],
        }),
      ),
    ).toEqual([]);
  });

  const pod = (fields: Obj) => messages(planOf("kubernetes_deployment_v1", deployment(fields)));
  const inContainer = (fields: Obj) => pod({ container: [container(fields)] });

  it.each<[string, () => string[], string]>([
    [
      "object name",
      () => messages(planOf("kubernetes_deployment_v1", deployment({}, { name: "Coder_WS" }))),
      'metadata.name: Invalid value: "Coder_WS": a lowercase RFC 1123 subdomain',
    ],
    [
      "label value",
      () =>
        messages(
          planOf("kubernetes_deployment_v1", deployment({}, { labels: { a: "x".repeat(64) } })),
        ),
      "must be no more than 63 characters",
    ],
    [
      "annotation key",
      () =>
        messages(
          planOf("kubernetes_deployment_v1", deployment({}, { annotations: { "a b": "" } })),
        ),
      'metadata.annotations: Invalid value: "a b"',
    ],
    [
      "resource name with ..",
      () => inContainer({ resources: [{ requests: {}, limits: { "example..com/x": "1" } }] }),
      "must not contain '..'",
    ],
    [
      "non-standard native resource",
      () => inContainer({ resources: [{ requests: {}, limits: { gpu: "1" } }] }),
      "must be a standard resource for containers",
    ],
    [
      "a name that only contains kubernetes.io/ (the API server's check is a plain contains)",
      () => inContainer({ resources: [{ requests: {}, limits: { "xkubernetes.io/gpu": "1" } }] }),
      'limits[xkubernetes.io/gpu]: Invalid value: "xkubernetes.io/gpu": must be a standard resource for containers',
    ],
    [
      "an extended resource name with a requests. prefix",
      () =>
        inContainer({
          resources: [{ requests: {}, limits: { "requests.example.com/gpu": "1" } }],
        }),
      'limits[requests.example.com/gpu]: Invalid value: "requests.example.com/gpu": doesn\'t follow extended resource name standard',
    ],
    [
      "an extended resource name whose quota name requests.<name> is not qualified",
      () =>
        inContainer({ resources: [{ requests: {}, limits: { [`${"a".repeat(245)}/x`]: "1" } }] }),
      `Invalid value: "${"a".repeat(245)}/x": doesn't follow extended resource name standard`,
    ],
    [
      "fractional extended resource",
      () => inContainer({ resources: [{ requests: {}, limits: { "nvidia.com/gpu": "0.5" } }] }),
      'limits[nvidia.com/gpu]: Invalid value: "0.5": must be an integer',
    ],
    [
      "milli extended resource",
      () => inContainer({ resources: [{ requests: {}, limits: { "example.com/foo": "500m" } }] }),
      "must be an integer",
    ],
    [
      "request-only extended resource",
      () => inContainer({ resources: [{ requests: { "example.com/foo": "1" }, limits: {} }] }),
      "Limit must be set for non overcommitable resources",
    ],
    [
      "hugepages not a multiple of the page size",
      () => inContainer({ resources: [{ requests: {}, limits: { "hugepages-2Mi": "3Mi" } }] }),
      "must be a positive multiple of 2Mi",
    ],
    [
      "request above the limit",
      () => inContainer({ resources: [{ requests: { cpu: "2" }, limits: { cpu: "1" } }] }),
      "must be less than or equal to cpu limit of 1",
    ],
    [
      "unparsable quantity",
      () => inContainer({ resources: [{ requests: { memory: "lots" }, limits: {} }] }),
      "quantities must match the regular expression",
    ],
    [
      "toleration key",
      () => pod({ toleration: [{ key: "a b", operator: "Exists", value: "", effect: "" }] }),
      'tolerations[0].key: Invalid value: "a b"',
    ],
    [
      "Exists toleration with a value",
      () => pod({ toleration: [{ key: "gpu", operator: "Exists", value: "yes", effect: "" }] }),
      "value must be empty when `operator` is 'Exists'",
    ],
    [
      "Equal toleration value",
      () => pod({ toleration: [{ key: "gpu", operator: "Equal", value: "1".repeat(100) }] }),
      "tolerations[0].value",
    ],
    [
      "tolerationSeconds without NoExecute",
      () => pod({ toleration: [{ key: "gpu", operator: "Exists", toleration_seconds: "30" }] }),
      "effect must be 'NoExecute' when `tolerationSeconds` is set",
    ],
    [
      "nodeSelector key",
      () => pod({ node_selector: { "bad key": "x" } }),
      'nodeSelector: Invalid value: "bad key"',
    ],
    [
      "nodeSelector value",
      () => pod({ node_selector: { pool: "9".repeat(100) } }),
      "nodeSelector: Invalid value",
    ],
    [
      "duplicate volume names",
      () =>
        pod({
          volume: [
            { name: "home", empty_dir: [{}] },
            { name: "home", empty_dir: [{}] },
          ],
        }),
      'volumes[1].name: Duplicate value: "home"',
    ],
    [
      "a mount of a missing volume",
      () => inContainer({ volume_mount: [{ name: "cache", mount_path: "/cache" }] }),
      'volumeMounts[0].name: Not found: "cache"',
    ],
    [
      "mount paths equal after normalizing",
      () =>
        inContainer({
          volume_mount: [
            { name: "home", mount_path: "/workspaces" },
            { name: "home", mount_path: "//workspaces/" },
          ],
        }),
      'volumeMounts[1].mountPath: Invalid value: "//workspaces/": must be unique',
    ],
    [
      "a mount under /proc",
      () => inContainer({ volume_mount: [{ name: "home", mount_path: "/proc/x" }] }),
      "must not be under /proc or /sys",
    ],
    [
      "a subPath with ..",
      () => inContainer({ volume_mount: [{ name: "home", mount_path: "/x", sub_path: "../y" }] }),
      "subPath: Invalid value: \"../y\": must not contain '..'",
    ],
    [
      "an unknown capability",
      () =>
        inContainer({
          security_context: [
            { ...RESTRICTED_CONTEXT, capabilities: [{ add: ["CAP_NET_RAW"], drop: [] }] },
          ],
        }),
      'capabilities.add[0]: Invalid value: "CAP_NET_RAW"',
    ],
    [
      "an env name",
      () => inContainer({ env: [{ name: "1BAD" }] }),
      'env[0].name: Invalid value: "1BAD": a valid environment variable name',
    ],
  ])("rejects %s", (_name, run, message) => {
    expect(run().join("\n")).toContain(message);
  });

  it("accepts an extended resource whose domain has 244 characters (requests.<name> has 253)", () => {
    const limits = { [`${"a".repeat(244)}/x`]: "1", "example.com/requests.x": "1" };
    expect(inContainer({ resources: [{ requests: {}, limits }] })).toEqual([]);
  });

  it("rejects a PVC without storage, with an empty one, and without access modes", () => {
    const claim = (spec: Obj) =>
      messages(
        planOf("kubernetes_persistent_volume_claim_v1", {
          metadata: [{ name: "home", namespace: "coder" }],
          spec: [spec],
        }),
      );
    expect(claim({ access_modes: ["ReadWriteOnce"], resources: [{ requests: {} }] })).toEqual([
      "spec.resources[storage]: Required value",
    ]);
    expect(
      claim({ access_modes: [], resources: [{ requests: { storage: "" } }] }).join("\n"),
    ).toContain("at least 1 access mode is required");
  });

  it("checks a TokenRequest's lifetime and the object its token is bound to", () => {
    const request = (spec: Obj) =>
      messages(
        planOf("kubernetes_token_request_v1", {
          metadata: [{ name: "coder-ws", namespace: "packer-dev" }],
          spec: [spec],
        }),
      );
    const secret = { api_version: "v1", kind: "Secret", name: "coder-ws-session", uid: "u" };
    expect(request({ expiration_seconds: 36000, bound_object_ref: [secret] })).toEqual([]);
    expect(request({ expiration_seconds: 599, bound_object_ref: [] })).toEqual([
      "spec.expirationSeconds: Invalid value: may not specify a duration less than 10 minutes",
    ]);
    expect(request({ expiration_seconds: 2 ** 32 + 1 })).toEqual([
      "spec.expirationSeconds: Invalid value: may not specify a duration larger than 2^32 seconds",
    ]);
    expect(
      request({ expiration_seconds: 600, bound_object_ref: [{ ...secret, kind: "ConfigMap" }] }),
    ).toEqual(["cannot bind token to object of type v1, Kind=ConfigMap"]);
    expect(
      request({
        expiration_seconds: 600,
        bound_object_ref: [{ ...secret, api_version: "kubevirt.io/v1", kind: "VirtualMachine" }],
      }),
    ).toEqual(["cannot bind token to object of type kubevirt.io/v1, Kind=VirtualMachine"]);
    expect(request({ bound_object_ref: [{ ...secret, name: "" }] })).toEqual([
      "spec.boundObjectRef.name: Required value",
    ]);
  });

  it("skips what is still unknown at plan time", () => {
    const after = deployment({ volume: [] });
    const unknown = { spec: [{ template: [{ spec: [{ volume: true }] }] }] };
    expect(messages(planOf("kubernetes_deployment_v1", after, unknown))).toEqual([]);
  });
});

describe("the API server's rule table", () => {
  it("names the file and function of every rule", () => {
    for (const rule of API_OBJECT_RULES) {
      expect(rule.source).toMatch(/^kubernetes\/kubernetes \S+\.go [A-Z]\w+/);
    }
  });
});

describe("Pod Security levels", () => {
  const level = (fields: Obj) =>
    planOf("kubernetes_deployment_v1", deployment(fields)).podSecurityLevel(
      "kubernetes_deployment_v1.x",
    );
  const withContext = (context: Obj) =>
    level({ container: [container({ security_context: [context] })] });

  it("tells restricted, baseline and privileged apart", () => {
    expect(level({})).toBe("restricted");
    // The zero value the provider sends: a container's false overrides the pod's true.
    expect(withContext({ ...RESTRICTED_CONTEXT, run_as_non_root: false })).toBe("baseline");
    expect(withContext({ ...RESTRICTED_CONTEXT, allow_privilege_escalation: true })).toBe(
      "baseline",
    );
    expect(
      withContext({ ...RESTRICTED_CONTEXT, capabilities: [{ add: ["CHOWN"], drop: ["ALL"] }] }),
    ).toBe("baseline");
    expect(withContext({ ...RESTRICTED_CONTEXT, seccomp_profile: [] })).toBe("baseline");
    expect(withContext({ ...RESTRICTED_CONTEXT, privileged: true })).toBe("privileged");
    expect(
      withContext({ ...RESTRICTED_CONTEXT, capabilities: [{ add: ["SYS_ADMIN"], drop: [] }] }),
    ).toBe("privileged");
    expect(withContext({ ...RESTRICTED_CONTEXT, seccomp_profile: [{ type: "Unconfined" }] })).toBe(
      "privileged",
    );
    expect(level({ host_network: true })).toBe("privileged");
    expect(level({ volume: [{ name: "home", host_path: [{ path: "/" }] }] })).toBe("privileged");
  });
});

describe("through the harness", () => {
  let tf: TerraformHarness;
  let dir: string;
  beforeAll(async () => {
    tf = await TerraformHarness.start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "kubernetes-api-"));
    fs.writeFileSync(
      path.join(dir, "main.tf.json"),
      JSON.stringify({
        terraform: { required_providers: { kubernetes: { source: "hashicorp/kubernetes" } } },
        variable: { storage_class: { type: "string" }, value: { type: "string" } },
        resource: {
          kubernetes_persistent_volume_claim_v1: {
            home: {
              metadata: { name: "home", namespace: "coder" },
              spec: {
                access_modes: ["ReadWriteOnce"],
                storage_class_name: "${var.storage_class}",
                resources: { requests: { storage: "1Gi" } },
              },
              wait_until_bound: false,
            },
          },
          kubernetes_pod_v1: {
            ws: {
              metadata: { name: "ws", namespace: "coder" },
              spec: {
                container: { name: "dev", image: "img" },
                toleration: { key: "gpu", operator: "Exists", value: "${var.value}" },
              },
            },
          },
        },
      }),
    );
  });
  afterAll(async () => {
    await tf.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("fails a plan whose objects the API server would reject, and reports it on request", async () => {
    const variables = { storage_class: "standard", value: "yes" };
    await expect(tf.plan(dir, { variables })).rejects.toThrow(KubernetesApiError);
    await expect(tf.plan(dir, { variables })).rejects.toThrow(
      "value must be empty when `operator` is 'Exists'",
    );
    const reported = await tf.plan(dir, { variables, kubernetesApi: "report" });
    expect(reported.kubernetesApi().violations).toHaveLength(1);
    const good = await tf.plan(dir, { variables: { ...variables, value: "" } });
    expect(good.kubernetesApi().violations).toEqual([]);
    // An apply (preview's first start) checks what it sent, too.
    await expect(tf.apply(dir, { variables })).rejects.toThrow(KubernetesApiError);
  });

  it("sees a changed storage class replace the PVC, and no replace otherwise", async () => {
    const variables = { storage_class: "standard", value: "" };
    const applied = await tf.apply(dir, { variables });
    const same = await tf.plan(dir, { variables, state: applied });
    expect(() => expectNoReplace(same)).not.toThrow();
    const changed = await tf.plan(dir, {
      variables: { ...variables, storage_class: "fast" },
      state: applied,
    });
    expect(changed.resource("kubernetes_persistent_volume_claim_v1.home").actions).toEqual([
      "delete",
      "create",
    ]);
    expect(destructiveChanges(changed)).toEqual([
      {
        address: "kubernetes_persistent_volume_claim_v1.home",
        actions: ["delete", "create"],
        replacePaths: ["spec.0.storage_class_name"],
      },
    ]);
    expect(() => expectNoReplace(changed)).toThrow(
      /kubernetes_persistent_volume_claim_v1\.home: delete, create \(forced by spec\.0\.storage_class_name\)/,
    );
  });
});
