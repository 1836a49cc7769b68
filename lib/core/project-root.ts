import * as fs from "fs";
import * as path from "path";

/**
 * The project's root folder (the one holding package.json), found from this
 * file's location so that it is the same whether the code runs from source
 * (jest, ts) or from the transpiled build/ tree (npm run synth).
 */
export function projectRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "lib"))) {
      if (path.basename(dir) !== "build") return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the project root above ${__dirname}`);
    dir = parent;
  }
}

/** Reads a file that ships with the project (a template's script, say), by path from the root. */
export function readProjectFile(relPath: string): string {
  const file = path.join(projectRoot(), relPath);
  if (!fs.existsSync(file))
    throw new Error(`${relPath}: file not found (looked in ${projectRoot()})`);
  return fs.readFileSync(file, "utf8");
}
