/**
 * The devcontainer template as synthesized for this test run, and the
 * fixtures that make the mock devcontainer-builder behave like the real service.
 */
import type { Fixtures, PlanOptions } from "@coder-cdktf/terraform-harness";
import { type SynthesizedTemplate, synthTemplate } from "../../support/synth-template";

/** The synthesized template directory and its configuration (synth's model). */
export type SynthesizedDevcontainer = SynthesizedTemplate<Record<string, any>>;

/** The template as `npm run synth` writes it (the folder Coder would receive). */
export function synthesizeDevcontainer(): SynthesizedDevcontainer {
  return synthTemplate<Record<string, any>>("devcontainer");
}

/** Template variables without defaults. */
export const REQUIRED_VARIABLES = {
  namespace: "coder-workspaces",
  devcontainer_builder_endpoint: "http://devcontainer-builder.devcontainer-builder.svc:8080",
};

export const REPOSITORY = "https://github.com/acme/app.git";
export const IMAGE = "registry.example.com/app:ws-0f4a2c1e-7b3d-4e5f-9a8b-1c2d3e4f5a6b-0";
export const COMMIT = "3f2a9c0d5e6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f";

/** What an existing build (in state) and the service return: registry/name/tag and the image. */
export const BUILD_VALUES = {
  image: IMAGE,
  commit: COMMIT,
  resolved_registry: "registry.example.com",
  resolved_name: "app",
  resolved_tag: "ws-0f4a2c1e-7b3d-4e5f-9a8b-1c2d3e4f5a6b-0",
};

/** Fixtures with the build's computed values and the given Dev Container metadata. */
export function devcontainerFixtures(metadata: Record<string, unknown> | null): Fixtures {
  return {
    resources: { devcontainerbuilder_build: { ...BUILD_VALUES, id: "build-1" } },
    data_sources: metadata ? { devcontainerbuilder_devcontainer: metadata } : {},
  };
}

/**
 * Apply options of a workspace's first build while stopped: afterwards the build, tracker,
 * agent and PVC exist, and every later start reads the Dev Container metadata during plan.
 */
export const STOPPED_FIRST_BUILD: PlanOptions = {
  variables: REQUIRED_VARIABLES,
  parameters: { repository: REPOSITORY },
  workspace: { startCount: 0 },
  fixtures: devcontainerFixtures(null),
};

/** A runtime object with every field null, as the provider returns when nothing is set. */
export const EMPTY_RUNTIME = {
  remote_user_uid: null,
  remote_user_gid: null,
  remote_user_home: null,
  cap_add: null,
  privileged: null,
  seccomp_unconfined: null,
  init: null,
  shm_size_bytes: null,
  hostname: null,
  host_aliases: null,
};

/** host_requirements with nothing requested. */
export const NO_HOST_REQUIREMENTS = {
  cpus: null,
  memory_bytes: null,
  storage_bytes: null,
  gpu_json: null,
};

/**
 * Dev Container metadata as GET /devcontainer returns it for a plain image with user
 * vscode (uid 1001, gid 1002), nothing else configured; `overrides` replace top-level fields.
 */
export function metadata(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: IMAGE,
    digest: "sha256:0000",
    remote_user: "vscode",
    container_user: "root",
    workspace_folder: "/workspaces/${localWorkspaceFolderBasename}",
    configuration_json: "{}",
    metadata_json: "[]",
    runtime: {
      ...EMPTY_RUNTIME,
      remote_user_uid: 1001,
      remote_user_gid: 1002,
      remote_user_home: "/home/vscode",
    },
    host_requirements: NO_HOST_REQUIREMENTS,
    mounts: [],
    forward_ports: [],
    env_scripts: {},
    lifecycle_scripts: {},
    extensions: [],
    settings_json: "{}",
    variables: [],
    warnings: [],
    ...overrides,
  };
}

/** The value of a planned script's `NAME='…'` input line (no quote inside), or undefined. */
export function scriptInput(script: string, name: string): string | undefined {
  return new RegExp(`^${name}='([^']*)'$`, "m").exec(script)?.[1];
}

/**
 * The planned script with some `NAME='…'` inputs replaced (say, paths of a test's sandbox);
 * each must be there.
 */
export function withScriptInputs(script: string, values: Readonly<Record<string, string>>): string {
  let text = script;
  for (const [name, value] of Object.entries(values)) {
    const line = new RegExp(`^${name}='[^']*'$`, "m");
    if (!line.test(text)) throw new Error(`the script has no input ${name}`);
    text = text.replace(line, `${name}='${value}'`);
  }
  return text;
}
