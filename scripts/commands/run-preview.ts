// `npm run preview -- <devcontainer.json | repository folder> [--var k=v]… [--param k=v]…
//                     [--remote-user name] [--uid n] [--gid n] [--json] [--config coder-cdktf.jsonc]`
//
// Shows what the devcontainer template would give a repository's workspace, before any
// build: the repository's devcontainer.json is mapped to what devcontainer-builder's
// `GET /devcontainer` would answer (app/preview/devcontainer-metadata.ts), the template is
// synthesized into a temp dir and its first start is applied with the real Terraform CLI
// against the plan harness's mock providers (packages/terraform-harness; preview is its one user outside
// the tests), and the resulting pod, volume, apps and warnings are printed. Every number is
// Terraform's. This file reads the command line; the stages are app/preview/pipeline.ts.
//
// Run through scripts/preview.js (a plain node launcher that runs it bundled).
import { printable } from "../../app/preview/render-report";
import {
  EXIT_USAGE,
  previewWorkspace,
  type PreviewArgs,
  type PreviewIo,
} from "../../app/preview/pipeline";
import type { PreviewSession } from "../../app/preview/preview-session";
import { parseCommandLine, UsageError } from "../../app/cli-args";

export { skipCdktfCreationStacks } from "../../lib/private/creation-stacks";
export { useSynthCache } from "../../app/preview/preview-session";
export type { PreviewArgs, PreviewIo };
export { UsageError };

const USAGE =
  "usage: npm run preview -- <devcontainer.json | repository folder> [--var name=value]... " +
  "[--param name=value]... [--remote-user <name>] [--uid <n>] [--gid <n>] [--json] " +
  "[--config <file.jsonc>]";

export function parseArgs(argv: readonly string[]): PreviewArgs {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      var: { type: "string", multiple: true, default: [] },
      param: { type: "string", multiple: true, default: [] },
      json: { type: "boolean", default: false },
      config: { type: "string" },
      "remote-user": { type: "string" },
      uid: { type: "string" },
      gid: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    USAGE,
  );
  if (values.help) throw new UsageError(USAGE);
  const pairs = (flag: string, given: readonly string[]) => {
    const out: Record<string, string> = {};
    for (const value of given) {
      const at = value.indexOf("=");
      if (at <= 0) throw new UsageError(`--${flag} ${value}: expected name=value\n${USAGE}`);
      out[value.slice(0, at)] = value.slice(at + 1);
    }
    return out;
  };
  if (positionals.length !== 1) {
    throw new UsageError(
      `${positionals.length === 0 ? "name a devcontainer.json or a repository folder" : `one target at a time (got ${positionals.join(", ")})`}\n${USAGE}`,
    );
  }
  const config = values.config;
  const service: { remoteUser?: string; uid?: number; gid?: number } = {};
  const remoteUser = values["remote-user"];
  if (remoteUser !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(remoteUser))
      throw new UsageError(`--remote-user ${remoteUser}: expected a user name\n${USAGE}`);
    service.remoteUser = remoteUser;
  }
  for (const flag of ["uid", "gid"] as const) {
    const value = values[flag];
    if (value === undefined) continue;
    if (!/^\d{1,10}$/.test(value) || Number(value) > 2 ** 31 - 1)
      throw new UsageError(`--${flag} ${value}: expected a number from 0 to 2147483647\n${USAGE}`);
    service[flag] = Number(value);
  }
  return {
    target: positionals[0],
    variables: pairs("var", values.var),
    parameters: pairs("param", values.param),
    json: values.json === true,
    ...(config ? { config } : {}),
    service,
  };
}

/** One preview; returns the exit status. */
export async function runPreview(
  argv: readonly string[],
  terminal: PreviewIo,
  session?: PreviewSession,
): Promise<number> {
  // Messages quote the repository's paths and values: what a terminal acts on is escaped,
  // line by line (the report's tables do the same, app/preview/render-report.ts).
  const io: PreviewIo = {
    stdout: terminal.stdout,
    stderr: (text) => terminal.stderr(text.split("\n").map(printable).join("\n")),
  };
  let args: PreviewArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${error.message}\n`);
    return EXIT_USAGE;
  }
  return previewWorkspace(args, io, session);
}
