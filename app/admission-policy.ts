/**
 * `npm run admission-policy`: the packer-builder shared namespace's admission policy, from the
 * names the template uses and the operator's configuration (its identityNamespace setting).
 */
import { projectRoot } from "../lib/core/project-root";
import { loadOperatorConfig, resolveConfigPath } from "./operator-config";
import { TEMPLATES } from "./registry";
import {
  DEFAULT_IDENTITY_NAMESPACE,
  VM_LABEL_KEY,
  WORKSPACE_KEY_PREFIX,
} from "../templates/packer-builder";
import {
  admissionPolicyYaml,
  type AdmissionPolicyNames,
} from "../templates/packer-builder/admission-policy";

/** The names for the policy: the configured identity namespace, else the template's default. */
export function admissionPolicyNames(configFile?: string): AdmissionPolicyNames {
  const file = resolveConfigPath(projectRoot(), configFile);
  let namespace = DEFAULT_IDENTITY_NAMESPACE;
  if (file !== undefined) {
    const config = loadOperatorConfig(
      file,
      TEMPLATES.map((t) => t.id),
    );
    const configured = config.templates?.get("packer-builder")?.settings.identityNamespace;
    if (typeof configured === "string") namespace = configured;
  }
  return { namespace, identityPrefix: WORKSPACE_KEY_PREFIX, labelKey: VM_LABEL_KEY };
}

/** The policy file's content for `configFile` (or the configuration the project finds). */
export function admissionPolicyFile(configFile?: string): string {
  return admissionPolicyYaml(admissionPolicyNames(configFile));
}
