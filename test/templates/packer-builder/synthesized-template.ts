import { type SynthesizedTemplate, synthTemplate } from "../../support/synth-template";

export type TerraformJson = Record<string, any>;

/** The synthesized packer-builder template and its configuration (synth's model). */
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

/** The Harvester CA, PEM, as an operator passes it in `harvester_ca_certificate`. */
export const FIXTURE_CA_PEM =
  "-----BEGIN CERTIFICATE-----\nMIIBfixtureCAfixtureCA\n-----END CERTIFICATE-----\n";

/**
 * Resource fixtures for an apply. None are needed any more: the mock mints the
 * TokenRequest's token as the API server would. Kept for the callers that pass it.
 */
export const TOKEN_SECRET_FIXTURES = {};

/** The token the mock minted for a start, from an applied state. */
export function appliedToken(resources: readonly { address: string; values: any }[]): string {
  const request = resources.find(
    (r) => r.address === "kubernetes_token_request_v1.harvester_identity[0]",
  );
  if (!request) throw new Error("no token request in the state (is the workspace started?)");
  return request.values.token as string;
}
