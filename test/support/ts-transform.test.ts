/**
 * scripts/ts.js, the project's TypeScript transform (jest's transformer and `register` for the
 * scripts): its output and jest's cache keys are the same for the same file in a copy of the
 * project elsewhere (so that test/core/new-template.test.ts's copy reuses the transform cache),
 * a changed file misses, and stack traces still name the file and line of the TypeScript.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../lib/core/project-root";
import { tempDirs } from "./run-script";

interface TsModule {
  transpile(source: string, filename: string): string;
  getCacheKey(source: string, filename: string): string;
}

const ROOT = projectRoot();
const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** scripts/ts.js loaded from a copy of the project's transform at a root of its own. */
function tsAt(name: string): { root: string; ts: TsModule } {
  const root = dirs.make(name);
  mkdirSync(join(root, "scripts"));
  cpSync(join(ROOT, "scripts", "ts.js"), join(root, "scripts", "ts.js"));
  cpSync(join(ROOT, "tsconfig.json"), join(root, "tsconfig.json"));
  symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return { root, ts: require(join(root, "scripts", "ts.js")) as TsModule };
}

const SOURCE = 'export const greeting: string = "hello";\n';

describe("the same file at two roots", () => {
  const a = tsAt("ts-root-a");
  const b = tsAt("ts-root-b");
  const at = (root: string, rel: string) => join(root, ...rel.split("/"));

  it("has the same cache key and the same output", () => {
    expect(a.ts.getCacheKey(SOURCE, at(a.root, "app/x.ts"))).toBe(
      b.ts.getCacheKey(SOURCE, at(b.root, "app/x.ts")),
    );
    expect(a.ts.transpile(SOURCE, at(a.root, "app/x.ts"))).toBe(
      b.ts.transpile(SOURCE, at(b.root, "app/x.ts")),
    );
  });

  it("misses when the content or the path from the root differs", () => {
    const key = a.ts.getCacheKey(SOURCE, at(a.root, "app/x.ts"));
    expect(b.ts.getCacheKey(SOURCE.replace("hello", "hullo"), at(b.root, "app/x.ts"))).not.toBe(
      key,
    );
    expect(b.ts.getCacheKey(SOURCE, at(b.root, "lib/x.ts"))).not.toBe(key);
  });

  it("misses when the transform itself differs", () => {
    const before = b.ts.getCacheKey(SOURCE, at(b.root, "app/x.ts"));
    const file = join(b.root, "scripts", "ts.js");
    writeFileSync(file, `${readFileSync(file, "utf8")}\n// another version\n`);
    jest.resetModules();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const changed = require(file) as TsModule;
    expect(changed.getCacheKey(SOURCE, at(b.root, "app/x.ts"))).not.toBe(before);
  });
});

describe("transpile", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require("../../scripts/ts") as TsModule;

  it("names the file in a syntax error", () => {
    const file = join(ROOT, "app", "broken.ts");
    expect(() => ts.transpile("export const = 1;\n", file)).toThrow(`${file}: `);
  });
});

it("maps a stack trace to the TypeScript's own file and line (the map names the base name)", () => {
  // Deep enough that a source resolved against the wrong folder cannot land on it by chance.
  const dir = join(dirs.make("ts-trace"), "a", "b", "c", "d");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "thrower.ts");
  writeFileSync(
    file,
    `interface Where { readonly stack: string }\n\nexport function where(): Where {\n  return { stack: new Error("here").stack ?? "" };\n}\n`,
  );
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { where } = require(file) as { where(): { stack: string } };
  expect(where().stack.split("\n")[1]).toContain(`(${file}:4:`);
});
