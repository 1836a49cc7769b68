/**
 * `npm run admission-policy`: the admission policies operators apply on Harvester for
 * packer-builder, from the names the template uses and the operator's configuration (its
 * identityNamespace and identityRoleBindings settings): the build namespaces' policy always,
 * and the provisioner identity's policy when its username is given.
 */
import { projectRoot } from "../lib/core/project-root";
import { loadOperatorConfig, resolveConfigPath } from "./operator-config";
import { TEMPLATES } from "./registry";
import {
  BUILD_NAMESPACE_PREFIX,
  DEFAULT_IDENTITY_NAMESPACE,
  identityRoleBindingsOf,
  type PackerBuilderTemplateProps,
  PUBLIC_IMAGES_NAMESPACE,
  TEMPLATE_NAMESPACE_LABEL,
  VM_LABEL_KEY,
  WORKSPACE_KEY_PREFIX,
} from "../templates/packer-builder";
import {
  admissionPolicyYaml,
  type AdmissionPolicyNames,
} from "../templates/packer-builder/admission-policy";
import {
  provisionerPolicyYaml,
  type ProvisionerPolicyNames,
} from "../templates/packer-builder/provisioner-policy";

/** What the command is asked for besides the configuration file. */
export interface AdmissionPolicyOptions {
  /** The operator configuration file. @default the one the project finds */
  readonly configFile?: string;
  /** Namespaces whose Multus networks build VMs may join. @default ["harvester-public"] */
  readonly networkNamespaces?: readonly string[];
  /** The `/kubeconfig.yaml` identity's username: adds its policy. @default none: no such policy */
  readonly provisionerUser?: string;
}

/** packer-builder's settings in the operator configuration ({} when it has none). */
function packerBuilderSettings(configFile?: string): PackerBuilderTemplateProps {
  const file = resolveConfigPath(projectRoot(), configFile);
  if (file === undefined) return {};
  const config = loadOperatorConfig(
    file,
    TEMPLATES.map((t) => t.id),
  );
  return (config.templates?.get("packer-builder")?.settings ?? {}) as PackerBuilderTemplateProps;
}

/** The identity namespace the settings name, else the template's default. */
function identityNamespaceOf(settings: PackerBuilderTemplateProps): string {
  return typeof settings.identityNamespace === "string"
    ? settings.identityNamespace
    : DEFAULT_IDENTITY_NAMESPACE;
}

/** A Kubernetes namespace name (DNS-1123 label), or the command fails naming the value. */
function checkNamespace(value: string): string {
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(value)) {
    throw new Error(
      `--network-namespace ${JSON.stringify(value)}: must be a namespace name (DNS-1123 label)`,
    );
  }
  return value;
}

/** The names for the build namespaces' policy. */
export function admissionPolicyNames(
  configFile?: string,
  networkNamespaces: readonly string[] = [PUBLIC_IMAGES_NAMESPACE],
): AdmissionPolicyNames {
  return {
    namespace: identityNamespaceOf(packerBuilderSettings(configFile)),
    identityPrefix: WORKSPACE_KEY_PREFIX,
    labelKey: VM_LABEL_KEY,
    namespaceLabel: TEMPLATE_NAMESPACE_LABEL,
    networkNamespaces: networkNamespaces.map(checkNamespace),
  };
}

/** The names for the provisioner identity's policy. */
export function provisionerPolicyNames(
  provisionerUser: string,
  configFile?: string,
): ProvisionerPolicyNames {
  // A username is printed in the file's header and compared in CEL: one line, no controls.
  const control = [...provisionerUser].some((c) => c.charCodeAt(0) < 0x20 || c === "\u007f");
  if (provisionerUser.trim() === "" || control) {
    throw new Error(
      "--provisioner-user: give the username of the /kubeconfig.yaml identity (kubectl auth whoami), on one line",
    );
  }
  const settings = packerBuilderSettings(configFile);
  const identityNamespace = identityNamespaceOf(settings);
  return {
    provisionerUser,
    identityNamespace,
    buildNamespacePrefix: BUILD_NAMESPACE_PREFIX,
    identityPrefix: WORKSPACE_KEY_PREFIX,
    namespaceLabel: TEMPLATE_NAMESPACE_LABEL,
    bindings: identityRoleBindingsOf({ ...settings, identityNamespace }),
  };
}

/** The policy file's content for these options. */
export function admissionPolicyFile(options: AdmissionPolicyOptions | string = {}): string {
  const { configFile, networkNamespaces, provisionerUser } =
    typeof options === "string" ? { configFile: options } : options;
  const build = admissionPolicyYaml(admissionPolicyNames(configFile, networkNamespaces));
  if (provisionerUser === undefined) return build;
  return build + provisionerPolicyYaml(provisionerPolicyNames(provisionerUser, configFile));
}
