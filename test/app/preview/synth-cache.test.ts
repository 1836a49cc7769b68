/**
 * `npm run preview`'s cache of synthesized templates (app/preview/synth-cache.ts): an entry
 * per code version and operator configuration, written whole, old code versions removed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SynthCache } from "../../../app/preview/synth-cache";

let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), "synth-cache-"))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A synthesized template folder holding `text`. */
function template(text: string): string {
  const dir = join(root, `synth-${text}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "cdk.tf.json"), text);
  return dir;
}

it("keys an entry by the code version and the configuration file's path and bytes", () => {
  const config = join(root, "coder-cdktf.jsonc");
  writeFileSync(config, "{}");
  const cache = new SynthCache({ dir: join(root, "cache"), codeVersion: "v1" });
  const withConfig = cache.entryFor(config);
  expect(cache.entryFor(config)).toBe(withConfig);
  expect(cache.entryFor(undefined)).not.toBe(withConfig);
  writeFileSync(config, '{"templates": {}}');
  expect(cache.entryFor(config)).not.toBe(withConfig);
  const other = new SynthCache({ dir: join(root, "cache"), codeVersion: "v2" });
  expect(other.entryFor(undefined)).not.toBe(cache.entryFor(undefined));
});

it("reads back what it wrote, and nothing before", () => {
  const cache = new SynthCache({ dir: join(root, "cache"), codeVersion: "v1" });
  const entry = cache.entryFor(undefined);
  expect(cache.read(entry)).toBeUndefined();
  cache.write(entry, { dir: template("one"), model: { variable: { a: {} } } });
  const kept = cache.read(entry);
  expect(kept?.model).toEqual({ variable: { a: {} } });
  expect(readFileSync(join(kept?.dir ?? "", "cdk.tf.json"), "utf8")).toBe("one");
});

it("removes the entries of other code versions when it writes one", () => {
  const dir = join(root, "cache");
  const old = new SynthCache({ dir, codeVersion: "v1" });
  old.write(old.entryFor(undefined), { dir: template("old"), model: {} });
  const current = new SynthCache({ dir, codeVersion: "v2" });
  const entry = current.entryFor(undefined);
  current.write(entry, { dir: template("new"), model: {} });
  expect(readdirSync(dir)).toEqual([entry.slice(dir.length + 1)]);
  expect(old.read(old.entryFor(undefined))).toBeUndefined();
});
