/**
 * Scripts as the synthesized JSON holds them: the `#!` line and assignments, then the shipped
 * file read with `file()` (lib/core/embedded-script.ts). Synth-level tests read them back whole.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { IConstruct } from "../../lib/core/cdk";
import { readProjectFile } from "../../lib/core/project-root";
import { shippedFiles } from "../../lib/core/shipped-file";

/** `${trimprefix(file("${path.module}/P"), "PREFIX")}` */
const TRIMMED_FILE =
  /\$\{trimprefix\(file\("\$\{path\.module\}\/([^"]+)"\), ("(?:[^"\\]|\\.)*")\)\}/g;
/** `${file("${path.module}/P")}` */
const WHOLE_FILE = /\$\{file\("\$\{path\.module\}\/([^"]+)"\)\}/g;

/**
 * `text` with every shipped-file read replaced by what Terraform reads: the file from
 * `read(path)` (its path in the template folder), without the trimmed prefix.
 */
export function withShippedFiles(text: string, read: (path: string) => string): string {
  return text
    .replace(TRIMMED_FILE, (_, path: string, prefix: string) => {
      const content = read(path);
      const trimmed = JSON.parse(prefix) as string;
      return content.startsWith(trimmed) ? content.slice(trimmed.length) : content;
    })
    .replace(WHOLE_FILE, (_, path: string) => read(path));
}

/** Reads shipped files from a synthesized template folder. */
export function fromTemplateDir(dir: string): (path: string) => string {
  return (path) => readFileSync(join(dir, path), "utf8");
}

/** Reads the files constructs in `stack` ship (when read), from their sources (in-memory synth). */
export function fromStack(stack: IConstruct): (path: string) => string {
  return (path) => {
    const source = shippedFiles(stack).find((f) => f.path === path)?.source;
    if (!source) throw new Error(`nothing in the stack ships ${path}`);
    return readProjectFile(source);
  };
}
