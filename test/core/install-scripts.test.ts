/**
 * `npm ci` runs no dependency's install script: the project needs none of them (esbuild's
 * platform package, the prebuilt node-pty and watcher binaries, protobufjs's version check),
 * so package.json's `allowScripts` denies each one, which npm 11.16+ reads and npm 12
 * enforces. A dependency that brings a new install script fails this test until it is
 * reviewed and listed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../lib/core/project-root";

const read = (file: string) => JSON.parse(readFileSync(join(projectRoot(), file), "utf8"));

/** Names of the locked packages that declare an install script. */
function withInstallScripts(lock: {
  packages?: Record<string, { hasInstallScript?: boolean; name?: string }>;
}): string[] {
  const names = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (entry.hasInstallScript !== true || path === "") continue;
    names.add(entry.name ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
  }
  return [...names].sort();
}

test("every dependency's install script is denied in allowScripts", () => {
  const allowScripts = (read("package.json").allowScripts ?? {}) as Record<string, unknown>;
  const scripted = withInstallScripts(read("package-lock.json"));
  expect(scripted.length).toBeGreaterThan(0);
  expect(Object.fromEntries(scripted.map((name) => [name, allowScripts[name]]))).toEqual(
    Object.fromEntries(scripted.map((name) => [name, false])),
  );
});

test("a locked package with an install script is found, scoped or nested", () => {
  expect(
    withInstallScripts({
      packages: {
        "": { hasInstallScript: true },
        "node_modules/esbuild": { hasInstallScript: true },
        "node_modules/a/node_modules/@s/b": { hasInstallScript: true },
        "node_modules/plain": {},
      },
    }),
  ).toEqual(["@s/b", "esbuild"]);
});
