import * as fs from "fs";
import * as path from "path";
import { Construct, type IConstruct, TerraformStack } from "./cdk";
import { Expr, isPlainRelativePath } from "./expr";
import { projectRoot } from "./project-root";

/** Properties of {@link ShippedFile}. */
export interface ShippedFileProps {
  /** The file in the project, by path from the project root. */
  readonly source: string;
  /** Where it goes in the synthesized template folder (beside cdk.tf.json). */
  readonly path: string;
}

/**
 * A project file that ships inside the synthesized template, for the configuration to read
 * with `file()`. Scripts ship this way rather than as JSON strings: Terraform parses every
 * string of a `.tf.json` file as a template each time it evaluates or analyses it, and the
 * scripts were nearly a third of the devcontainer template's text (plans are ~12% cheaper without
 * them), and operators read a script in Coder's template files as the script it is.
 *
 * Written by {@link writeShippedFiles} after synth (app/synth.ts and the plan-test
 * helpers). One file per path and stack: asking again for the same source and path returns
 * the first one.
 */
export class ShippedFile extends Construct {
  public readonly source: string;
  public readonly path: string;

  /** The file for `props` in `scope`'s stack, created on first use. */
  static of(scope: IConstruct, props: ShippedFileProps): ShippedFile {
    if (!isPlainRelativePath(props.path)) {
      throw new Error(
        `shipped file "${props.source}": path "${props.path}" is not a plain relative path ` +
          "inside the template folder",
      );
    }
    const stack = TerraformStack.of(scope);
    const id = `shipped-file:${props.path}`.replace(/\//g, "|");
    const existing = stack.node.tryFindChild(id);
    if (existing instanceof ShippedFile) {
      if (existing.source !== props.source) {
        throw new Error(
          `shipped file "${props.path}": both "${existing.source}" and "${props.source}" ship there`,
        );
      }
      return existing;
    }
    return new ShippedFile(stack, id, props);
  }

  private constructor(scope: Construct, id: string, props: ShippedFileProps) {
    super(scope, id);
    this.source = props.source;
    this.path = props.path;
  }

  /** `file("${path.module}/<path>")`: the file's text, wherever the module is. */
  public fileExpression(): Expr<string> {
    return Expr.moduleFile(this.path);
  }
}

/** The files constructs in `stack` ship, by path. */
export function shippedFiles(stack: IConstruct): ShippedFile[] {
  return stack.node
    .findAll()
    .filter((c): c is ShippedFile => c instanceof ShippedFile)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Copies the files constructs in `stack` ship into `dir` (its synthesized folder, beside
 * cdk.tf.json), keeping each source's permission bits. Returns their paths, sorted.
 */
export function writeShippedFiles(stack: IConstruct, dir: string): string[] {
  return shippedFiles(stack).map((file) => {
    const source = path.join(projectRoot(), file.source);
    if (!fs.existsSync(source)) {
      throw new Error(`${file.source}: file not found (shipped as ${file.path})`);
    }
    const target = path.join(dir, ...file.path.split("/"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(source, target);
    fs.chmodSync(target, fs.statSync(source).mode & 0o777);
    return file.path;
  });
}
