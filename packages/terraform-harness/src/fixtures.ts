/**
 * Fixtures: the values the mock provider gives computed attributes (data sources read during
 * plan, resources created during apply). Format of the file the mock reads:
 *
 *   { "data_sources": { "<type>": Entry | Entry[] }, "resources": { "<type>": Entry | Entry[] } }
 *
 * where Entry is either the attribute values themselves, or `{ match, values }`: `match` is a
 * subset of the block's configuration (e.g. `{ name: "cpu" }`) and selects which reads the
 * values apply to. All matching entries contribute; per attribute the first one wins, and the
 * harness puts a test's own entries before the defaults below.
 */

/** Attribute values of one data source or resource (plain JSON, as in the state). */
export type FixtureValues = Readonly<Record<string, unknown>>;

/** Values applied only to blocks whose configuration contains `match`. */
export interface MatchedFixture {
  readonly match?: Readonly<Record<string, unknown>>;
  readonly values: FixtureValues;
}

export type FixtureEntry = FixtureValues | MatchedFixture;

/** Fixtures by type name. */
export interface Fixtures {
  readonly data_sources?: Readonly<Record<string, FixtureEntry | readonly FixtureEntry[]>>;
  readonly resources?: Readonly<Record<string, FixtureEntry | readonly FixtureEntry[]>>;
}

/** Id of the default workspace. */
export const DEFAULT_WORKSPACE_ID = "0f4a2c1e-7b3d-4e5f-9a8b-1c2d3e4f5a6b";
/** Id of the default workspace owner. */
export const DEFAULT_OWNER_ID = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b";

/** data.coder_workspace as a started workspace "dev". */
export const DEFAULT_WORKSPACE: FixtureValues = {
  id: DEFAULT_WORKSPACE_ID,
  name: "dev",
  start_count: 1,
  transition: "start",
  access_url: "https://coder.example.com",
  access_port: 443,
  template_id: "7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f",
  template_name: "kubernetes",
  template_version: "v1",
  is_prebuild: false,
  is_prebuild_claim: false,
  prebuild_count: 0,
};

/** data.coder_workspace_owner as user "alice". */
export const DEFAULT_OWNER: FixtureValues = {
  id: DEFAULT_OWNER_ID,
  name: "alice",
  full_name: "Alice Example",
  email: "alice@example.com",
  login_type: "password",
  groups: ["Everyone"],
  rbac_roles: [{ name: "member", org_id: "" }],
  session_token: "fixture-session-token",
  oidc_access_token: "",
  ssh_private_key: "fixture-ssh-private-key",
  ssh_public_key: "ssh-ed25519 AAAAfixture alice",
};

/** data.coder_provisioner on a linux/amd64 provisioner. */
export const DEFAULT_PROVISIONER: FixtureValues = {
  id: "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
  os: "linux",
  arch: "amd64",
};

/** Workspace fields a test may set; `startCount` also sets the matching transition. */
export interface WorkspaceFixture {
  readonly startCount?: 0 | 1;
  readonly [attribute: string]: unknown;
}

/** What {@link buildFixtures} combines. */
export interface FixtureInputs {
  readonly fixtures?: Fixtures;
  /** coder_parameter values by parameter name; unnamed parameters take their default. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly workspace?: WorkspaceFixture;
  readonly owner?: FixtureValues;
}

/** The fixtures file content for one harness call: the test's values before the defaults. */
export function buildFixtures(inputs: FixtureInputs): Fixtures {
  const own = inputs.fixtures ?? {};
  const dataSources: Record<string, FixtureEntry[]> = {};
  const add = (type: string, ...entries: FixtureEntry[]) => {
    dataSources[type] = [...(dataSources[type] ?? []), ...entries];
  };
  for (const [type, entry] of Object.entries(own.data_sources ?? {})) add(type, ...asList(entry));
  if (inputs.workspace) add("coder_workspace", workspaceValues(inputs.workspace));
  if (inputs.owner) add("coder_workspace_owner", inputs.owner);
  for (const [name, value] of Object.entries(inputs.parameters ?? {})) {
    add("coder_parameter", { match: { name }, values: { value: parameterValue(value) } });
  }
  add("coder_workspace", DEFAULT_WORKSPACE);
  add("coder_workspace_owner", DEFAULT_OWNER);
  add("coder_provisioner", DEFAULT_PROVISIONER);
  const resources: Record<string, FixtureEntry[]> = {};
  for (const [type, entry] of Object.entries(own.resources ?? {})) resources[type] = asList(entry);
  return { data_sources: dataSources, resources };
}

function asList(entry: FixtureEntry | readonly FixtureEntry[]): FixtureEntry[] {
  return Array.isArray(entry) ? [...(entry as readonly FixtureEntry[])] : [entry as FixtureEntry];
}

function workspaceValues(workspace: WorkspaceFixture): FixtureValues {
  const { startCount, ...fields } = workspace;
  if (startCount === undefined) return fields;
  return { start_count: startCount, transition: startCount === 1 ? "start" : "stop", ...fields };
}

/** coder_parameter.value is a string; lists (list(string) parameters) are JSON-encoded. */
function parameterValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
