/**
 * What a template promises, kept next to it in `templates/<id>/intent.json` and checked
 * against every synth by test/snapshots/templates.test.ts, so that the promise survives a
 * snapshot update: provider constraints, the variables in form order, parameter orders, and
 * which resources live only while the workspace runs and which survive a stop.
 * `npm run new-template` derives a new template's intent from its first synth
 * ({@link deriveIntent}); after that it is edited by hand, deliberately.
 */
import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../lib/core/project-root";

export const INTENT_FILE = "intent.json";
const START_COUNT = "${data.coder_workspace.me.start_count}";

export interface TemplateIntent {
  /** Provider local names in required_providers. */
  readonly providers: readonly string[];
  /** Provider configurations: local name → aliases (null for the default one). */
  readonly providerAliases: Readonly<Record<string, readonly (string | null)[]>>;
  /** Template variables in the order Coder lists them (file order). */
  readonly variables: readonly string[];
  /** Workspace parameters and their form order. */
  readonly parameterOrders: Readonly<Record<string, number>>;
  /** Resources that exist only while the workspace runs (count = start_count). */
  readonly whileRunning: readonly string[];
  /** Resources that survive a stop (no count): the agent, data, identities. */
  readonly surviveStop: readonly string[];
  /** Resources that run as the user: while running, and only once a prebuild is claimed. */
  readonly whileRunningClaimed?: readonly string[];
}

/** The intent of template `id`; one clear error when it has none. */
export function templateIntent(id: string, root: string = projectRoot()): TemplateIntent {
  const file = path.join("templates", id, INTENT_FILE);
  if (!fs.existsSync(path.join(root, file))) {
    throw new Error(
      `template "${id}" has no ${file}: what it promises (providers, variables, parameter ` +
        `order, what runs while the workspace runs). Write one; \`npm run new-template\` does for a new template`,
    );
  }
  return JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as TemplateIntent;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The intent a synthesized configuration (synth's `model`) shows. */
export function deriveIntent(model: Json): TemplateIntent {
  const resources = Object.entries((model.resource ?? {}) as Json).flatMap(([type, byName]) =>
    Object.entries(byName as Json).map(([name, r]) => ({
      address: `${type}.${name}`,
      count: (r as Json).count,
    })),
  );
  return {
    providers: Object.keys(model.terraform?.required_providers ?? {}),
    providerAliases: Object.fromEntries(
      Object.entries((model.provider ?? {}) as Record<string, { alias?: string }[]>).map(
        ([name, blocks]) => [name, blocks.map((b) => b.alias ?? null)],
      ),
    ),
    variables: Object.keys(model.variable ?? {}),
    parameterOrders: Object.fromEntries(
      Object.entries((model.data?.coder_parameter ?? {}) as Record<string, { order: number }>).map(
        ([name, p]) => [name, p.order],
      ),
    ),
    whileRunning: resources.filter((r) => r.count === START_COUNT).map((r) => r.address),
    surviveStop: resources.filter((r) => r.count === undefined).map((r) => r.address),
  };
}
