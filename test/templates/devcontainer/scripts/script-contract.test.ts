/**
 * The contract with the template that embeds these scripts: POSIX sh with the shebang on
 * line 1 (the template inserts its assignments after it), and every input variable the code
 * reads documented in the header comment.
 */
import { readdirSync, readFileSync } from "node:fs";
import { SCRIPTS_DIR } from "./helpers";

/** seed-home's inputs come from the init container's env, named by the spec (§9). */
const SPEC_NAMED_INPUTS = ["HOME_DIR", "VOLUME_DIRS", "MOUNT_POINT_DIRS", "SEED_DATA_DIR"];
/**
 * Inputs whose names the agent's runtime bytes fix (they predate the file): the variables
 * metadata script reads the `names` line the template writes, and the agent's environment.
 */
const OTHER_INPUTS: Readonly<Record<string, readonly string[]>> = {
  "variables-metadata.sh": ["names", "DEVCONTAINER_LOCALENV_"],
};

const scripts = readdirSync(SCRIPTS_DIR).filter((name) => name.endsWith(".sh"));

function split(text: string): { header: string; code: string } {
  const lines = text.split("\n");
  const end = lines.findIndex((line) => !line.startsWith("#"));
  return { header: lines.slice(0, end).join("\n"), code: lines.slice(end).join("\n") };
}

describe("script contract", () => {
  test("there are scripts to check", () => {
    expect(scripts.length).toBeGreaterThanOrEqual(4);
  });

  test.each(scripts)("%s starts with #!/bin/sh", (name) => {
    expect(readFileSync(`${SCRIPTS_DIR}/${name}`, "utf8").split("\n")[0]).toBe("#!/bin/sh");
  });

  test.each(scripts)("%s documents every input it reads in its header", (name) => {
    const { header, code } = split(readFileSync(`${SCRIPTS_DIR}/${name}`, "utf8"));
    const read = new Set(code.match(/\bDC_[A-Z0-9_]+\b/g) ?? []);
    for (const input of SPEC_NAMED_INPUTS)
      if (new RegExp(`\\$\\{?${input}\\b`).test(code)) read.add(input);
    for (const input of OTHER_INPUTS[name] ?? [])
      if (new RegExp(`\\$\\{?${input}`).test(code)) read.add(input);
    expect(read.size).toBeGreaterThan(0);
    const undocumented = [...read].filter((input) => !header.includes(input));
    expect(undocumented).toEqual([]);
  });
});
