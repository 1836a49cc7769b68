/**
 * The suite's jest runtime (test/support/code-cache-runtime.js): modules are compiled with
 * V8's code cache, entries are written for new sources, and a bad entry is rejected and
 * replaced without changing what the module does.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cacheFile, CACHE_ENV } = require("./code-cache-runtime") as {
  cacheFile(cacheDirectory: string, source: string, parameters: string[], filename: string): string;
  CACHE_ENV: string;
};

/** The wrapper's parameters jest compiles every module with (no extra sandbox globals). */
const PARAMETERS = ["module", "exports", "require", "__dirname", "__filename", "jest"];
/** Set by the runtime: unset when jest runs without it. */
const CACHE_DIRECTORY = process.env[CACHE_ENV] ?? "(the code-cache runtime is not in use)";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "code-cache-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function entryOf(file: string): string {
  return cacheFile(CACHE_DIRECTORY, readFileSync(file, "utf8"), PARAMETERS, file);
}

it("writes an entry for a module it compiles", () => {
  const file = join(dir, "answer.js");
  writeFileSync(file, `module.exports = ${Date.now()} % 7 + 40;\n`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect(require(file)).toBeGreaterThanOrEqual(40);
  expect(statSync(entryOf(file)).size).toBeGreaterThan(0);
});

it("rejects a bad entry, compiles the module as before and replaces the entry", () => {
  const file = join(dir, "bad-entry.js");
  writeFileSync(file, `module.exports = { answer: 42, at: ${Date.now()} };\n`);
  const entry = entryOf(file);
  writeFileSync(entry, Buffer.from("not V8's code cache"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect((require(file) as { answer: number }).answer).toBe(42);
  expect(readFileSync(entry).toString()).not.toBe("not V8's code cache");
});

it("keys an entry by its file: the same source elsewhere names its own file in a stack trace", () => {
  // V8 checks an entry's source, not its file, and keeps the file name it was made under: a
  // key by source alone (or by the path from the root, for a copy of the project) would make
  // the second module report the first one's path.
  const source = `module.exports = () => new Error("where").stack;\n`;
  const files = ["first", "second"].map((name) => {
    const file = join(dir, name, "same-source.js");
    mkdirSync(join(dir, name));
    writeFileSync(file, source);
    return file;
  });
  expect(entryOf(files[0])).not.toBe(entryOf(files[1]));
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const stack = (require(file) as () => string)();
    expect(stack.split("\n")[1]).toContain(`(${file}:1:`);
  }
});
