/**
 * Snapshots per template (cdk.tf.json, locals.tf and main.tf, byte for byte), paired with assertions of
 * what the template promises, so that the intent survives a snapshot update: provider
 * constraints, the variables in form order, parameter orders, and which resources live only
 * while the workspace runs and which survive a stop.
 *
 * After an intended change: `npx jest test/snapshots --ci=false -u`, then review the diff.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TEMPLATES } from "../../templates";
import {
  PROVIDER_SOURCES,
  PROVIDER_VERSION_CONSTRAINTS,
  REQUIRED_TERRAFORM_VERSION,
} from "../../lib/template-stack";
import { HCL_FILES } from "../../lib/hcl-files";
import { synthTemplate } from "../support/synth-template";

const START_COUNT = "${data.coder_workspace.me.start_count}";

/** What each template promises, independently of the snapshot. */
interface TemplateIntent {
  /** Provider local names in required_providers. */
  readonly providers: readonly string[];
  /** Provider configurations: local name → aliases (undefined for the default one). */
  readonly providerAliases: Readonly<Record<string, readonly (string | undefined)[]>>;
  /** Template variables in the order Coder lists them (file order). */
  readonly variables: readonly string[];
  /** Workspace parameters and their form order. */
  readonly parameterOrders: Readonly<Record<string, number>>;
  /** Resources that exist only while the workspace runs (count = start_count). */
  readonly whileRunning: readonly string[];
  /** Resources that survive a stop (no count): the agent, data, identities. */
  readonly surviveStop: readonly string[];
}

const INTENTS: Readonly<Record<string, TemplateIntent>> = {
  kubernetes: {
    providers: ["coder", "kubernetes"],
    providerAliases: { coder: [undefined], kubernetes: [undefined] },
    variables: [
      "use_kubeconfig",
      "namespace",
      "arch",
      "memory_alert_threshold",
      "disk_alert_threshold",
      "jetbrains",
    ],
    parameterOrders: { cpu: 1, memory: 2, home_disk_size: 3 },
    whileRunning: ["kubernetes_deployment_v1.main", "coder_metadata.pod"],
    surviveStop: [
      "coder_agent.main",
      "kubernetes_persistent_volume_claim_v1.home",
      "coder_metadata.home_volume",
    ],
  },
  devcontainer: {
    providers: ["coder", "devcontainerbuilder", "kubernetes"],
    providerAliases: {
      coder: [undefined],
      devcontainerbuilder: [undefined],
      kubernetes: [undefined],
    },
    variables: [
      "use_kubeconfig",
      "namespace",
      "devcontainer_builder_endpoint",
      "image_pull_secret_name",
      "accept_vscode_license",
      "allow_privileged",
      "subdomain_apps",
      "max_forwarded_ports",
      "vscode_extension",
      "external_auth_id",
      "max_cpu",
      "max_memory",
      "allow_node_placement",
      "git_credentials_username",
      "git_credentials_token",
      "memory_alert_threshold",
      "disk_alert_threshold",
    ],
    parameterOrders: {
      repository: 1,
      branch: 2,
      cpu: 3,
      memory: 4,
      disk_size: 5,
      devcontainer_variables: 6,
      rebuild: 7,
    },
    whileRunning: [
      "kubernetes_deployment_v1.main",
      "coder_script.devcontainer_lifecycle",
      "coder_script.devcontainer_post_attach",
      "coder_script.devcontainer_vscode",
      "coder_metadata.pod_info",
    ],
    surviveStop: [
      "coder_agent.main",
      "kubernetes_persistent_volume_claim_v1.data",
      "devcontainerbuilder_build.workspace",
      "terraform_data.rebuild",
      "coder_metadata.data_volume",
    ],
  },
  "packer-builder": {
    providers: ["coder", "kubernetes"],
    providerAliases: { coder: [undefined], kubernetes: [undefined, "harvester"] },
    variables: [
      "use_kubeconfig",
      "harvester_kubeconfig_path",
      "harvester_api_server",
      "image",
      "image_pull_secret_name",
      "ca_url",
      "repository_url",
      "packer_plugin_path",
      "packer_plugin_source",
      "max_cpu",
      "max_memory",
      "arch",
      "memory_alert_threshold",
      "disk_alert_threshold",
      "ai_task",
      "ai_task_anthropic_api_key",
    ],
    parameterOrders: { cpu: 1, memory: 2, disk_size: 3 },
    whileRunning: ["kubernetes_deployment_v1.main", "coder_metadata.pod"],
    surviveStop: [
      "coder_agent.main",
      "kubernetes_persistent_volume_claim_v1.persistent",
      "kubernetes_service_account_v1.harvester_identity",
      "kubernetes_secret_v1.harvester_identity_token",
      "kubernetes_secret_v1.packer_kubeconfig",
      "kubernetes_service_account_v1.workspace_identity",
      "coder_metadata.persistent_volume",
    ],
  },
};

it("has an intent for every template, and a template for every intent", () => {
  expect(TEMPLATES.map((t) => t.id).sort()).toEqual(Object.keys(INTENTS).sort());
});

describe.each(TEMPLATES.map((t) => t.id))("template %s", (id) => {
  const intent = INTENTS[id];
  /** The text of each configuration file, or a placeholder for one the template lacks. */
  const texts: Record<string, string> = {};
  let config: Record<string, any>;
  beforeAll(() => {
    const synthesized = synthTemplate(id);
    try {
      for (const name of ["cdk.tf.json", ...HCL_FILES]) {
        const file = join(synthesized.dir, name);
        texts[name] = existsSync(file) ? readFileSync(file, "utf8") : `(no ${name})`;
      }
      // The whole configuration as one JSON document (cdk.tf.json with the HCL files' part).
      config = synthesized.config;
    } finally {
      synthesized.cleanup();
    }
  });

  /** A resource by its address (`type.name`). */
  const resource = (address: string): Record<string, unknown> => {
    const [type, name] = address.split(".");
    const found = config.resource?.[type]?.[name];
    if (found === undefined) throw new Error(`${id}: no resource ${address}`);
    return found;
  };

  it.each(["cdk.tf.json", ...HCL_FILES])("synthesizes %s as in the snapshot", (name) => {
    expect(texts[name]).toMatchSnapshot();
  });

  it("requires Terraform >= 1.5 and each provider from its source with the project's constraint, without a backend", () => {
    expect(config.terraform.required_version).toBe(REQUIRED_TERRAFORM_VERSION);
    expect(config.terraform).not.toHaveProperty("backend");
    expect(config.terraform.required_providers).toEqual(
      Object.fromEntries(
        intent.providers.map((p) => [
          p,
          { source: PROVIDER_SOURCES[p], version: PROVIDER_VERSION_CONSTRAINTS[p] },
        ]),
      ),
    );
  });

  it("configures each provider once per alias", () => {
    const aliases = Object.fromEntries(
      Object.entries(config.provider as Record<string, { alias?: string }[]>).map(
        ([name, blocks]) => [name, blocks.map((b) => b.alias)],
      ),
    );
    expect(aliases).toEqual(intent.providerAliases);
  });

  it("writes the template variables in the order Coder should list them", () => {
    expect(Object.keys(config.variable)).toEqual(intent.variables);
  });

  it("orders the workspace parameters explicitly, each at its own position", () => {
    const orders = Object.fromEntries(
      Object.entries(config.data.coder_parameter as Record<string, { order: number }>).map(
        ([name, p]) => [name, p.order],
      ),
    );
    expect(orders).toEqual(intent.parameterOrders);
  });

  it("counts the pod and its scripts by start_count: they exist only while the workspace runs", () => {
    for (const address of intent.whileRunning) {
      expect({ address, count: resource(address).count }).toEqual({ address, count: START_COUNT });
    }
  });

  it("gives the agent, the data and the identities no count: they survive a stop", () => {
    for (const address of intent.surviveStop) {
      expect({ address, count: resource(address).count }).toEqual({ address, count: undefined });
    }
  });

  it("keeps the data volume's size fixed after creation", () => {
    const claims = Object.values(
      config.resource.kubernetes_persistent_volume_claim_v1 as Record<string, any>,
    );
    expect(claims).toHaveLength(1);
    expect(claims[0].lifecycle.ignore_changes).toContain("spec[0].resources[0].requests");
  });
});
