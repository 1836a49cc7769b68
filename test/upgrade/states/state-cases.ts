/**
 * The saved states of earlier template versions (test/upgrade/states/*.tfstate.json, written
 * by regenerate.ts): which version, which workspace.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import {
  DEFAULT_OWNER,
  DEFAULT_WORKSPACE,
  type Fixtures,
  type FixtureValues,
} from "@coder-cdktf/terraform-harness";

/**
 * The release the states come from: the last commit before the round of 2026-12-02 (the
 * templates as operators ran them before that round's fixes).
 */
export const STATES_COMMIT = "88f01b2";

export interface StateCase {
  /** File name without `.tfstate.json`. */
  readonly name: string;
  readonly template: string;
  /** data.coder_workspace at that build (template_name is the template's). */
  readonly workspace: FixtureValues;
  readonly owner: FixtureValues;
  /** What that version needed of the "cluster" besides today's inputs. @default none */
  readonly resourceFixtures?: Fixtures["resources"];
}

const owner = (name: string): FixtureValues => ({
  ...DEFAULT_OWNER,
  name,
  email: `${name}@example.com`,
});

export const STATE_CASES: readonly StateCase[] = [
  {
    name: "kubernetes",
    template: "kubernetes",
    workspace: { ...DEFAULT_WORKSPACE, name: "dev" },
    owner: owner("alice"),
  },
  {
    name: "kubernetes-stopped",
    template: "kubernetes",
    workspace: {
      ...DEFAULT_WORKSPACE,
      id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
      name: "weekend",
      start_count: 0,
      transition: "stop",
    },
    owner: owner("bob"),
  },
  {
    name: "devcontainer",
    template: "devcontainer",
    workspace: { ...DEFAULT_WORKSPACE, name: "app" },
    owner: owner("alice"),
  },
  {
    name: "packer-builder",
    template: "packer-builder",
    workspace: { ...DEFAULT_WORKSPACE, name: "images" },
    owner: owner("carol"),
    // That version read its Harvester token from a service-account-token Secret, which the
    // cluster fills (short-lived TokenRequests replaced it).
    resourceFixtures: {
      kubernetes_secret_v1: {
        match: { type: "kubernetes.io/service-account-token" },
        values: {
          data: {
            token: "fixture-harvester-token-8c1f0e2d",
            "ca.crt":
              "-----BEGIN CERTIFICATE-----\nMIIBfixtureCAfixtureCA\n-----END CERTIFICATE-----\n",
            namespace: "packer-dev",
          },
        },
      },
    },
  },
];

export function stateFile(name: string): string {
  return path.join(__dirname, `${name}.tfstate.json`);
}

type Json = Record<string, any>;

/**
 * A state as the fixtures keep it, the same bytes from every run: a fixed lineage and serial,
 * no check results (Terraform lists them in the order the checks finished), sensitive paths
 * sorted (likewise), and the random ids derived from the address instead: terraform_data's
 * id, and the uid the mock gives each Kubernetes object it creates, as the API server does.
 */
export function fixtureState(state: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const resources = (state.resources as Json[]).map((r) => ({
    ...r,
    instances: (r.instances as Json[]).map((instance) => {
      const address = `${r.module ?? ""}.${r.type}.${r.name}[${String(instance.index_key ?? "")}]`;
      const attributes =
        r.type === "terraform_data"
          ? { ...instance.attributes, id: derivedId(address) }
          : withDerivedUid(instance.attributes, address);
      const sensitive = Array.isArray(instance.sensitive_attributes)
        ? [...instance.sensitive_attributes].sort((a, b) =>
            JSON.stringify(a) < JSON.stringify(b) ? -1 : 1,
          )
        : instance.sensitive_attributes;
      return { ...instance, attributes, sensitive_attributes: sensitive };
    }),
  }));
  return {
    ...state,
    lineage: "00000000-0000-4000-8000-000000000000",
    serial: 1,
    resources,
    check_results: null,
  };
}

/** `attributes` with a Kubernetes object's `metadata[0].uid`, when it has one, derived from its address. */
function withDerivedUid(attributes: Json, address: string): Json {
  const metadata = attributes?.metadata;
  if (!Array.isArray(metadata) || typeof metadata[0]?.uid !== "string" || metadata[0].uid === "")
    return attributes;
  return { ...attributes, metadata: [{ ...metadata[0], uid: derivedId(`${address}#uid`) }] };
}

/** A UUID-shaped id from the hash of `text`. */
function derivedId(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
