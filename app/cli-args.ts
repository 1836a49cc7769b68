/**
 * Command lines of the project's CLIs (`npm run push`, `npm run preview`, synth's `--config`),
 * read with Node's own `node:util` parseArgs: `--flag value`, `--flag=value`, short flags,
 * repeated flags. Its errors become a {@link UsageError} that names the flag and ends with
 * the command's usage line.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** A command line that cannot be run; the CLI prints the message and exits 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The values and positionals of `argv`, strictly by `options`. */
export function parseCommandLine<O extends Options>(
  argv: readonly string[],
  options: O,
  usage: string,
): ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (e) {
    // Read by shape: Node's errors come from another realm under jest (no instanceof).
    const { code, message = "" } = e as { code?: string; message?: string };
    const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? "";
    // "-m, --message <value>": the long name is the one to show.
    const long = /'-\w, (--[^' ]+)/.exec(message)?.[1] ?? flag;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      throw new UsageError(`unknown option ${flag}\n${usage}`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      throw new UsageError(`${long} needs a value\n${usage}`);
    }
    throw e;
  }
}
