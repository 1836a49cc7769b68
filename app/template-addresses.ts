/**
 * The resource addresses of a synthesized template, and the files that record them.
 *
 * Addresses are a contract with existing workspaces: Terraform keys state by address, so a
 * changed address destroys the old object (a PVC: the user's data) unless a `moved` block
 * says where it went. test/addresses/<template>.txt records each template's addresses, and
 * a test fails when they change without care (see docs/upgrading.md).
 */
import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../lib/core/project-root";

type Json = Record<string, unknown>;

/** One `moved` block of a configuration. */
export interface MovedAddress {
  readonly from: string;
  readonly to: string;
}

/** `type.name` of each resource, `data.type.name` of each data source, `module.name`; sorted. */
export function templateAddresses(config: Json): string[] {
  const addresses: string[] = [];
  for (const [type, byName] of Object.entries(record(config.resource))) {
    for (const name of Object.keys(record(byName))) addresses.push(`${type}.${name}`);
  }
  for (const [type, byName] of Object.entries(record(config.data))) {
    for (const name of Object.keys(record(byName))) addresses.push(`data.${type}.${name}`);
  }
  for (const name of Object.keys(record(config.module))) addresses.push(`module.${name}`);
  return addresses.sort();
}

/** The configuration's `moved` blocks. */
export function movedAddresses(config: Json): MovedAddress[] {
  const moved = Array.isArray(config.moved) ? config.moved : [];
  return moved
    .map((m) => record(m))
    .filter((m) => typeof m.from === "string" && typeof m.to === "string")
    .map((m) => ({ from: String(m.from), to: String(m.to) }));
}

/**
 * Whether a moved block takes care of the state at `removed`: one moves it (or a module
 * containing it) elsewhere. Data sources hold no state, so removing one is always safe.
 */
export function isMoveCovered(removed: string, moved: readonly MovedAddress[]): boolean {
  if (removed.startsWith("data.")) return true;
  const unindexed = (a: string) => a.replace(/\[[^\]]*\]$/, "");
  return moved.some((m) => unindexed(m.from) === removed || removed.startsWith(`${m.from}.`));
}

/** How a configuration's addresses differ from the recorded ones. */
export interface AddressChanges {
  readonly current: readonly string[];
  readonly added: readonly string[];
  /** Recorded addresses that are gone (moved or removed). */
  readonly removed: readonly string[];
  /** Removed addresses no moved block covers: they would be destroyed. */
  readonly uncovered: readonly string[];
}

/** Compares `config` with the `recorded` addresses. */
export function compareAddresses(recorded: readonly string[], config: Json): AddressChanges {
  const current = templateAddresses(config);
  const moved = movedAddresses(config);
  const removed = recorded.filter((a) => !current.includes(a));
  return {
    current,
    added: current.filter((a) => !recorded.includes(a)),
    removed,
    uncovered: removed.filter((a) => !isMoveCovered(a, moved)),
  };
}

/** The file recording a template's addresses. */
export function addressFile(templateId: string): string {
  return path.join(projectRoot(), "test", "addresses", `${templateId}.txt`);
}

/** The recorded addresses of a template, or undefined when it has no file yet. */
export function readRecordedAddresses(templateId: string): string[] | undefined {
  const file = addressFile(templateId);
  if (!fs.existsSync(file)) return undefined;
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** Writes a template's address file (one address a line, after a header saying how). */
export function writeRecordedAddresses(templateId: string, addresses: readonly string[]): void {
  const file = addressFile(templateId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const header =
    `# Resource addresses of the ${templateId} template: a contract with existing workspaces.\n` +
    `# Regenerate with \`npm run addresses:update\` only after reading docs/upgrading.md.\n`;
  fs.writeFileSync(file, header + addresses.join("\n") + "\n");
}

function record(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : {};
}
