/**
 * Publishing is additive (docs/security.md, packer-builder): the template binds only the
 * existing roles it is configured with and writes no RBAC rule, nothing it creates lives in
 * or points at `harvester-public` except a RoleBinding an operator asks for, and the only
 * thing its scripts ever delete is the workspace's own build VMs in the build namespace.
 */
import { Testing } from "../../../lib/core/cdk";
import { testApp } from "../../support/test-app";
import type { RoleBindingTarget } from "../../../lib/constructs/scoped-service-account";
import {
  PackerBuilderTemplate,
  type PackerBuilderTemplateProps,
} from "../../../templates/packer-builder";
import { fromStack, withShippedFiles } from "../../support/shipped-scripts";
import { synthPackerBuilder, type TerraformJson } from "./synthesized-template";

const PUBLIC = "harvester-public";

/** A packer-builder template with `props`, as Terraform JSON; `readShipped` reads its scripts. */
let readShipped: (path: string) => string = () => "";
function synth(props: PackerBuilderTemplateProps = {}): TerraformJson {
  const stack = new PackerBuilderTemplate(testApp(), "packer-builder", props);
  readShipped = fromStack(stack);
  return JSON.parse(Testing.synth(stack)) as TerraformJson;
}

/** Every string in `value` containing `text`, by its JSON path. */
function placesOf(value: unknown, text: string, place = ""): string[] {
  if (typeof value === "string") return value.includes(text) ? [place] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => placesOf(v, text, `${place}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) =>
      placesOf(v, text, place === "" ? k : `${place}.${k}`),
    );
  }
  return [];
}

/** `namespace/Kind/name` of every RoleBinding's role, and its subject. */
function bindings(tf: TerraformJson): string[] {
  return Object.values(tf.resource.kubernetes_role_binding_v1 as Record<string, any>)
    .map(
      (b) =>
        `${b.metadata.namespace}/${b.role_ref.kind}/${b.role_ref.name} -> ` +
        b.subject.map((s: any) => `${s.kind} ${s.namespace}/${s.name}`).join(", "),
    )
    .sort();
}

/** Resource types that author RBAC rules or grant cluster-wide (any provider version). */
const RBAC_AUTHORING = /^kubernetes_(cluster_)?role(_v1)?$|^kubernetes_cluster_role_binding(_v1)?$/;

describe("packer-builder publishing is additive", () => {
  const PUBLISH: RoleBindingTarget = {
    namespace: PUBLIC,
    roleKind: "Role",
    roleName: "coder-packer-builder",
  };

  it("binds exactly the default existing roles, to the workspace's own service accounts", () => {
    const tf = synth();
    // The build namespace: packer-dev, or the workspace's own one (then the ClusterRole of
    // the same name) with build_namespace_per_workspace.
    const kind = '${var.build_namespace_per_workspace ? "ClusterRole" : "Role"}';
    expect(bindings(tf)).toEqual([
      `\${local.harvester_namespace}/${kind}/packer-builder -> ServiceAccount \${local.harvester_namespace}/\${local.workspace_key}`,
      `\${local.harvester_namespace}/${kind}/packer-builder-read -> ServiceAccount \${local.harvester_namespace}/\${local.workspace_key}`,
    ]);
    expect(tf.locals.harvester_namespace).toBe(
      '${var.build_namespace_per_workspace ? kubernetes_namespace_v1.build_namespace[0].metadata[0].name : "packer-dev"}',
    );
  });

  it("authors no RBAC: the only RBAC resources are RoleBindings", () => {
    for (const tf of [synth(), synth({ identityRoleBindings: [PUBLISH] })]) {
      const types = Object.keys(tf.resource);
      expect(types.filter((t) => RBAC_AUTHORING.test(t))).toEqual([]);
      expect(types.filter((t) => /role|rbac/i.test(t))).toEqual(["kubernetes_role_binding_v1"]);
    }
  });

  it("puts nothing in, and points nothing at, harvester-public by default", () => {
    const template = synthPackerBuilder();
    try {
      expect(placesOf(template.config, PUBLIC)).toEqual([]);
    } finally {
      template.cleanup();
    }
  });

  it("reaches harvester-public only through a RoleBinding an operator configures", () => {
    const tf = synth({
      identityRoleBindings: [
        { namespace: "packer-dev", roleKind: "Role", roleName: "packer-builder" },
        PUBLISH,
      ],
    });
    const [address] = Object.keys(tf.resource.kubernetes_role_binding_v1).filter((a) =>
      a.includes("harvester_public"),
    );
    expect(placesOf(tf, PUBLIC)).toEqual([
      `resource.kubernetes_role_binding_v1.${address}.metadata.namespace`,
    ]);
    expect(bindings(tf)).toContain(
      "harvester-public/Role/coder-packer-builder -> ServiceAccount ${local.harvester_namespace}/${local.workspace_key}",
    );
  });

  it("ships scripts whose only delete is the workspace's build objects in the build namespace, never an image", () => {
    const tf = synth();
    const container = tf.resource.kubernetes_deployment_v1.main.spec.template.spec.container[0];
    const scripts: Record<string, string> = Object.fromEntries(
      Object.entries({
        bootstrap: container.command.join("\n"),
        ...Object.fromEntries(
          Object.entries(tf.resource.coder_script as Record<string, any>).map(([k, s]) => [
            k,
            s.script as string,
          ]),
        ),
      }).map(([k, text]) => [k, withShippedFiles(text, readShipped)]),
    );
    const changes = Object.entries(scripts).flatMap(([name, text]) =>
      text
        .split("\n")
        // Commands, not comments or log messages.
        .filter((line) => !/^\s*#/.test(line) && !/^\s*(\S+\)\s*)?log\s/.test(line))
        // kubectl verbs that change objects (not Terraform's replace() in the input lines).
        .filter((line) => /\b(delete|patch|replace|edit|apply|annotate|label)\b(?!\()/.test(line))
        .map((line) => `${name}: ${line.trim()}`),
    );
    expect(changes).toEqual([
      'sweep_build_vms: bounded_kubectl "${left}" delete "${kind}" --selector "${selector}" \\',
      'sweep_previous_build_vms: bounded_kubectl "${left}" delete "${kind}" --selector "${selector}" \\',
    ]);
    // The kinds it deletes: the build's VMs, instances, pools, replica sets and disks, never images.
    expect(
      scripts.sweep_build_vms
        .match(/^kinds=\(\n([^)]*)\)/m)?.[1]
        .split(/\s+/)
        .filter(Boolean),
    ).toEqual([
      "virtualmachinepools.pool.kubevirt.io",
      "virtualmachineinstancereplicasets.kubevirt.io",
      "virtualmachines.kubevirt.io",
      "virtualmachineinstances.kubevirt.io",
      "datavolumes.cdi.kubevirt.io",
      "persistentvolumeclaims",
    ]);
    expect(scripts.sweep_previous_build_vms).toBe(scripts.sweep_build_vms);
    expect(scripts.sweep_build_vms).toContain(
      `\nSWEEP_NAMESPACE='\${replace(local.harvester_namespace, "'", "'\\\\''")}'\n`,
    );
    for (const text of Object.values(scripts)) {
      expect(text).not.toContain(PUBLIC);
      expect(text).not.toMatch(/virtualmachineimage/i);
    }
  });
});
