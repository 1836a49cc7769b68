/**
 * Bad input at synth: a template or construct given a prop that Kubernetes or Coder would
 * refuse (or silently misuse) fails synth with `template "<id>": <prop> = <value>: <reason>`.
 */
import { Testing, TerraformStack } from "../../lib/core/cdk";
import { testApp } from "../support/test-app";
import { KubernetesTemplate, type KubernetesTemplateProps } from "../../templates/kubernetes";
import {
  PackerBuilderTemplate,
  type PackerBuilderTemplateProps,
} from "../../templates/packer-builder";
import { DevcontainerTemplate } from "../../templates/devcontainer";
import {
  ScopedServiceAccount,
  type ScopedServiceAccountProps,
} from "../../lib/constructs/scoped-service-account";
import { DataVolume, type DataVolumeProps } from "../../lib/constructs/data-volume";
import { WorkspaceParameter } from "../../lib/constructs/workspace-parameter";
import { WorkspaceDeployment } from "../../lib/constructs/workspace-deployment";
import { WorkspaceData } from "../../lib/constructs/workspace-data";
import { workspaceObjectMeta } from "../../lib/constructs/workspace-labels";
import { TemplateVariable } from "../../lib/core/template-variable";
import { InvalidPropError, POSITIVE_NUMBER } from "../../lib/core/validate";
import type { RoleBindingTarget } from "../../lib/constructs/scoped-service-account";
import { thrownMessage } from "../support/thrown-message";

// What each rule says is allowed, as the messages spell it out.
const DNS_LABEL =
  "a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)";
const DNS_SUBDOMAIN =
  "a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)";
const ROLE_NAME =
  "a role name (lower-case letters, digits, '-', '.' and ':', starting and ending with a letter or digit, at most 253 characters)";
const ROLE_KIND = 'one of "Role", "ClusterRole"';
const NON_ROOT_ID = "a user or group id from 1 to 2147483647 (workspaces do not run as root)";
const IMAGE =
  "an image reference such as registry.example.com/team/image:tag (lower-case path, optional tag and digest, no blanks)";
const ACCESS_MODES =
  'a non-empty list of one of "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"';
const PARAMETER_NAME =
  "a Coder parameter name (a letter, then letters, digits, '_' or '-', at most 64 characters)";

/** The message of the InvalidPropError `build` throws. */
function invalidProp(build: () => unknown): string {
  return thrownMessage(InvalidPropError, build);
}

const app = testApp;

describe("kubernetes template props", () => {
  it.each<[KubernetesTemplateProps, string]>([
    [{ image: "" }, `image = "": must be ${IMAGE}`],
    [{ image: "Ubuntu:22.04" }, `image = "Ubuntu:22.04": must be ${IMAGE}`],
    [{ image: "ubuntu 22.04" }, `image = "ubuntu 22.04": must be ${IMAGE}`],
  ])("refuses %j", (props, message) => {
    expect(invalidProp(() => new KubernetesTemplate(app(), "kubernetes", props))).toBe(
      `template "kubernetes": ${message}`,
    );
  });

  it("takes a registry with a port, a tag and a digest", () => {
    const image = `registry.example.com:5000/team/dev-image:1.2.3@sha256:${"ab".repeat(32)}`;
    const stack = new KubernetesTemplate(app(), "kubernetes", { image });
    const tf = JSON.parse(Testing.synth(stack));
    const pod = tf.resource.kubernetes_deployment_v1.main.spec.template.spec;
    expect(pod.container[0].image).toBe(image);
  });
});

describe("packer-builder template props", () => {
  const binding = (overrides: Partial<Record<keyof RoleBindingTarget, string>>) =>
    ({
      namespace: "packer-dev",
      roleKind: "Role",
      roleName: "packer-builder",
      ...overrides,
    }) as RoleBindingTarget;

  it.each<[PackerBuilderTemplateProps, string]>([
    [{ workspaceNamespace: "" }, `workspaceNamespace = "": must be ${DNS_LABEL}`],
    [{ identityNamespace: "Bad_NS" }, `identityNamespace = "Bad_NS": must be ${DNS_LABEL}`],
    [
      { identityNamespace: "n".repeat(64) },
      `identityNamespace = "${"n".repeat(64)}": must be ${DNS_LABEL}`,
    ],
    [{ uid: -5 }, `uid = -5: must be ${NON_ROOT_ID}`],
    [{ uid: 0 }, `uid = 0: must be ${NON_ROOT_ID}`],
    [{ uid: 1000.5 }, `uid = 1000.5: must be ${NON_ROOT_ID}`],
    [{ uid: 2147483648 }, `uid = 2147483648: must be ${NON_ROOT_ID}`],
    [
      { identityRoleBindings: [binding({}), binding({ namespace: "harvester public" })] },
      `identityRoleBindings[1].namespace = "harvester public": must be ${DNS_LABEL}`,
    ],
    [
      { identityRoleBindings: [binding({ roleKind: "ClusterRoleBinding" })] },
      `identityRoleBindings[0].roleKind = "ClusterRoleBinding": must be ${ROLE_KIND}`,
    ],
    [
      { identityRoleBindings: [binding({ roleName: "-builder" })] },
      `identityRoleBindings[0].roleName = "-builder": must be ${ROLE_NAME}`,
    ],
  ])("refuses %j", (props, message) => {
    expect(invalidProp(() => new PackerBuilderTemplate(app(), "packer-builder", props))).toBe(
      `template "packer-builder": ${message}`,
    );
  });

  it("names the template by its id, and reports the first bad prop", () => {
    expect(
      invalidProp(
        () =>
          new PackerBuilderTemplate(app(), "builds", {
            workspaceNamespace: "",
            identityNamespace: "Bad_NS",
            uid: -5,
          }),
      ),
    ).toBe(`template "builds": workspaceNamespace = "": must be ${DNS_LABEL}`);
  });

  it("takes valid props, ClusterRole names with a colon included", () => {
    const stack = new PackerBuilderTemplate(app(), "packer-builder", {
      workspaceNamespace: "builders",
      identityNamespace: "images-dev",
      identityRoleBindings: [
        binding({
          namespace: "images-dev",
          roleKind: "ClusterRole",
          roleName: "harvesterhci.io:view",
        }),
      ],
      uid: 2000,
    });
    const tf = JSON.parse(Testing.synth(stack));
    const refs = Object.values(tf.resource.kubernetes_role_binding_v1).map(
      (b: any) => `${b.metadata.namespace}/${b.role_ref.kind}/${b.role_ref.name}`,
    );
    // The identity-namespace binding follows the build namespace (images-dev, or the
    // workspace's own with build_namespace_per_workspace); the pod's account gets none.
    expect(refs.sort()).toEqual(["${local.harvester_namespace}/ClusterRole/harvesterhci.io:view"]);
    expect(tf.locals.harvester_namespace).toContain('"images-dev"');
    const pod = tf.resource.kubernetes_deployment_v1.main.spec.template.spec;
    expect(pod.security_context).toMatchObject({ run_as_user: "2000", run_as_group: "2000" });
  });
});

describe("devcontainer template props", () => {
  it("has none: everything an operator sets is a template variable", () => {
    // (scope, id): the constructor takes no props object to validate.
    expect(DevcontainerTemplate.length).toBe(2);
  });
});

/** A plain stack "t" to put constructs in. */
function stack(): TerraformStack {
  return new TerraformStack(app(), "t");
}

const META = { labels: { app: "x" }, annotations: {} };

describe("ScopedServiceAccount props", () => {
  const base: ScopedServiceAccountProps = { name: "coder-ws", namespace: "builds", meta: META };
  it.each<[Partial<ScopedServiceAccountProps>, string]>([
    [{ name: "Coder_WS" }, `name = "Coder_WS": must be ${DNS_SUBDOMAIN}`],
    [{ namespace: "" }, `namespace = "": must be ${DNS_LABEL}`],
    [
      { bindings: [{ namespace: "builds", roleKind: "Role", roleName: "Builder" }] },
      `bindings[0].roleName = "Builder": must be ${ROLE_NAME}`,
    ],
    [
      { bindings: [{ namespace: "builds", roleKind: "role" as "Role", roleName: "builder" }] },
      `bindings[0].roleKind = "role": must be ${ROLE_KIND}`,
    ],
    [
      { resourcePrefix: "1identity" },
      `resourcePrefix = "1identity": must be a Terraform name (a letter or '_', then letters, digits, '_' or '-')`,
    ],
  ])("refuses %j, naming the construct's path", (props, message) => {
    expect(
      invalidProp(() => new ScopedServiceAccount(stack(), "identity", { ...base, ...props })),
    ).toBe(`template "t": identity.${message}`);
  });
});

describe("DataVolume props", () => {
  const base: DataVolumeProps = { name: "home", namespace: "ws", size: "10Gi", meta: META };
  it.each<[Partial<DataVolumeProps>, string]>([
    [{ accessModes: [] }, `accessModes = []: must be ${ACCESS_MODES}`],
    [
      { accessModes: ["ReadWriteOnce", "ReadWriteSometimes"] },
      `accessModes = ["ReadWriteOnce","ReadWriteSometimes"]: must be ${ACCESS_MODES}`,
    ],
    [{ size: "10 GB" }, `size = "10 GB": must be a Kubernetes quantity such as 10Gi, 500M or 1.5`],
    [{ namespace: "WS" }, `namespace = "WS": must be ${DNS_LABEL}`],
    [{ name: "home/dir" }, `name = "home/dir": must be ${DNS_SUBDOMAIN}`],
  ])("refuses %j", (props, message) => {
    expect(invalidProp(() => new DataVolume(stack(), "home", { ...base, ...props }))).toBe(
      `template "t": home.${message}`,
    );
  });

  it("leaves values known only to Terraform to Terraform", () => {
    const s = stack();
    const ws = new WorkspaceData(s, "workspace");
    const volume = new DataVolume(s, "home", {
      ...base,
      name: `coder-${ws.id}-home`,
      size: `${ws.id}Gi`,
      meta: workspaceObjectMeta(ws, "pvc"),
    });
    expect(volume.claimName).toContain("${TfToken");
  });
});

describe("WorkspaceParameter props", () => {
  const base = { order: 1, displayName: "CPU", description: "d" };
  it("refuses a name Coder users could not pass as --parameter name=value", () => {
    expect(
      invalidProp(() => new WorkspaceParameter(stack(), "cpu", { ...base, name: "CPU cores" })),
    ).toBe(`template "t": cpu.name = "CPU cores": must be ${PARAMETER_NAME}`);
  });

  it("checks the construct id when it is the name", () => {
    expect(invalidProp(() => new WorkspaceParameter(stack(), "2cpu", base))).toBe(
      `template "t": 2cpu.name = "2cpu": must be ${PARAMETER_NAME}`,
    );
  });
});

describe("WorkspaceDeployment props", () => {
  it("refuses a pod without runAsUser, so no workspace runs as root by default", () => {
    const s = stack();
    expect(
      () =>
        new WorkspaceDeployment(s, "deployment", {
          workspace: new WorkspaceData(s, "workspace"),
          name: "ws",
          namespace: "ws",
          meta: META,
          pod: { securityContext: { runAsGroup: "1000" }, container: [] },
        }),
    ).toThrow(
      "t/deployment: pod.securityContext.runAsUser must be set (workspaces do not run as root)",
    );
  });
});

describe("TemplateVariable", () => {
  it("refuses a built-in default that breaks its own rules", () => {
    expect(
      invalidProp(
        () =>
          new TemplateVariable(stack(), "max_cpu", {
            type: "number",
            default: -1,
            rules: [POSITIVE_NUMBER],
          }),
      ),
    ).toBe('template "t": variable max_cpu default = -1: must be a number greater than 0');
  });
});
