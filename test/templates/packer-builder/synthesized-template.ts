import { type SynthesizedTemplate, synthTemplate } from "../../support/synth-template";

export type TerraformJson = Record<string, any>;

/** The synthesized packer-builder template and its cdk.tf.json. */
export type SynthesizedPackerBuilder = SynthesizedTemplate<TerraformJson>;

export function synthPackerBuilder(): SynthesizedPackerBuilder {
  return synthTemplate<TerraformJson>("packer-builder");
}

/** Variables every plan needs (the template's required ones). */
export const REQUIRED_VARIABLES = {
  harvester_api_server: "https://harvester.example.com/k8s/clusters/local",
  image: "registry.example.com/packer-builder:1.4.0",
  repository_url: "https://git.example.com/infra/ggl_core_infra.git",
};

/** The Harvester token, as the cluster fills the token Secret (wait_for_service_account_token). */
export const FIXTURE_TOKEN = "fixture-harvester-token-8c1f0e2d";
/** The Harvester CA, PEM, as in the token Secret's `ca.crt`. */
export const FIXTURE_CA_PEM =
  "-----BEGIN CERTIFICATE-----\nMIIBfixtureCAfixtureCA\n-----END CERTIFICATE-----\n";

/** Resource fixtures for an apply: the token Secret's data, filled by the "cluster". */
export const TOKEN_SECRET_FIXTURES = {
  kubernetes_secret_v1: {
    match: { type: "kubernetes.io/service-account-token" },
    values: { data: { token: FIXTURE_TOKEN, "ca.crt": FIXTURE_CA_PEM, namespace: "packer-dev" } },
  },
};
