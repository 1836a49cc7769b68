import { Testing, TerraformStack } from "../../../lib/core/cdk";
import { testApp } from "../../support/test-app";
import { ScopedServiceAccount } from "../../../lib/constructs/scoped-service-account";
import { sanitizedLabelValue } from "../../../lib/constructs/label-value";
import { RoleV1 } from "@cdktf/provider-kubernetes/lib/role-v1";
import { PackerBuilderTemplate } from "../../../templates/packer-builder";

// The reusable pieces behind the template: a per-workspace identity that only binds
// existing roles, and label values made from free-form names.

const META = { labels: { app: "x" }, annotations: {} };

function synthesize(
  configure: (stack: TerraformStack) => void,
): Record<string, Record<string, Record<string, unknown>>> {
  const stack = new TerraformStack(testApp(), "test");
  configure(stack);
  return JSON.parse(Testing.synth(stack)).resource;
}

describe("ScopedServiceAccount", () => {
  it("creates the account, one RoleBinding per existing role, and an optional token Secret", () => {
    const resources = synthesize((stack) => {
      new ScopedServiceAccount(stack, "identity", {
        name: "coder-abc",
        namespace: "builds",
        meta: META,
        bindings: [
          { namespace: "builds", roleKind: "Role", roleName: "builder" },
          { namespace: "images", roleKind: "ClusterRole", roleName: "image-reader" },
        ],
        tokenSecret: true,
      });
    });
    expect(Object.keys(resources).sort()).toEqual([
      "kubernetes_role_binding_v1",
      "kubernetes_secret_v1",
      "kubernetes_service_account_v1",
    ]);
    const bindings = Object.values(resources.kubernetes_role_binding_v1);
    expect(bindings.map((b) => [b.metadata, b.role_ref, b.subject])).toEqual([
      [
        expect.objectContaining({ name: "coder-abc-builder", namespace: "builds" }),
        { api_group: "rbac.authorization.k8s.io", kind: "Role", name: "builder" },
        [{ kind: "ServiceAccount", name: "coder-abc", namespace: "builds" }],
      ],
      [
        expect.objectContaining({ name: "coder-abc-image-reader", namespace: "images" }),
        { api_group: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "image-reader" },
        [{ kind: "ServiceAccount", name: "coder-abc", namespace: "builds" }],
      ],
    ]);
    const [account] = Object.values(resources.kubernetes_service_account_v1);
    expect(account.automount_service_account_token).toBe(false);
    const [token] = Object.values(resources.kubernetes_secret_v1);
    expect(token).toMatchObject({
      type: "kubernetes.io/service-account-token",
      wait_for_service_account_token: true,
      metadata: {
        name: "coder-abc-token",
        annotations: { "kubernetes.io/service-account.name": "coder-abc" },
      },
    });
  });

  it("keeps its addresses when an expression decides the namespace and role kind at apply time", () => {
    const resources = synthesize((stack) => {
      new ScopedServiceAccount(stack, "identity", {
        name: "coder-abc",
        namespace: "builds",
        namespaceValue: "${local.build_namespace}",
        meta: META,
        bindings: [
          {
            namespace: "builds",
            roleKind: "Role",
            roleName: "builder",
            namespaceValue: "${local.build_namespace}",
            roleKindValue: '${var.own ? "ClusterRole" : "Role"}',
          },
        ],
      });
    });
    const [address] = Object.keys(resources.kubernetes_role_binding_v1);
    // Made of the configured namespace and role (cdktf adds a suffix outside a TemplateStack).
    expect(address).toContain("identity_builds_builder");
    const binding = resources.kubernetes_role_binding_v1[address] as Record<string, any>;
    expect(binding.metadata.namespace).toBe("${local.build_namespace}");
    expect(binding.role_ref.kind).toBe('${var.own ? "ClusterRole" : "Role"}');
    expect(binding.subject).toEqual([
      { kind: "ServiceAccount", name: "coder-abc", namespace: "${local.build_namespace}" },
    ]);
    const [account] = Object.values(resources.kubernetes_service_account_v1) as Record<
      string,
      any
    >[];
    expect(account.metadata.namespace).toBe("${local.build_namespace}");
  });

  it("creates no token Secret unless asked, and then has no token data to give", () => {
    let identity: ScopedServiceAccount | undefined;
    const resources = synthesize((stack) => {
      identity = new ScopedServiceAccount(stack, "identity", {
        name: "a",
        namespace: "n",
        meta: META,
      });
    });
    expect(resources.kubernetes_secret_v1).toBeUndefined();
    expect(() => identity?.tokenSecretData).toThrow(/no token Secret/);
  });

  it("refuses the same role name twice in one namespace, and invalid role names", () => {
    expect(() =>
      synthesize((stack) => {
        new ScopedServiceAccount(stack, "identity", {
          name: "a",
          namespace: "n",
          meta: META,
          bindings: [
            { namespace: "n", roleKind: "Role", roleName: "r" },
            { namespace: "n", roleKind: "ClusterRole", roleName: "r" },
          ],
        });
      }),
    ).toThrow(/bind a role name once per namespace/);
    expect(() =>
      synthesize((stack) => {
        new ScopedServiceAccount(stack, "identity", {
          name: "a",
          namespace: "n",
          meta: META,
          bindings: [{ namespace: "n", roleKind: "Role", roleName: "Bad Name" }],
        });
      }),
    ).toThrow(
      `template "test": identity.bindings[0].roleName = "Bad Name": must be a role name (lower-case letters, digits, '-', '.' and ':', starting and ending with a letter or digit, at most 253 characters)`,
    );
  });
});

describe("sanitizedLabelValue", () => {
  it.each([
    ["Alice", "alice"],
    ["john_doe@corp", "john-doe-corp"],
    ["-.dev.-", "dev"],
    ["a".repeat(62) + "_b", "a".repeat(62)],
  ])("makes %j the label value %j at synth time", (input, expected) => {
    expect(sanitizedLabelValue(input)).toBe(expected);
  });
});

describe("the packer-builder template's RBAC guardrail", () => {
  it("fails synthesis when a Role is added to it, naming the construct", () => {
    const app = testApp();
    const template = new PackerBuilderTemplate(app, "packer-builder");
    new RoleV1(template, "sneaky_role", {
      metadata: { name: "sneaky", namespace: "packer-dev" },
      rule: [{ apiGroups: [""], resources: ["secrets"], verbs: ["get"] }],
    });
    expect(() => Testing.synth(template)).toThrow(/sneaky_role[\s\S]*(Role|RBAC)/);
  });
});
