/**
 * Lifecycle commands as devcontainer-builder renders them (`lifecycleScripts`): one POSIX
 * sh script per hook. A string runs through `/bin/sh -c`, a list runs as an argv, an
 * object's commands run in parallel; the script stops at the first failure with its exit
 * status. The workspace template only decodes and runs these scripts; how the service
 * words them is its own, so preview's rendering is equivalent, not byte-identical.
 */
import { shellWord, singleQuoted, withShellReferences } from "./variable-references";

/** The hooks, in the order the workspace runs them. */
export const LIFECYCLE_HOOKS = [
  "initializeCommand",
  "onCreateCommand",
  "updateContentCommand",
  "postCreateCommand",
  "postStartCommand",
  "postAttachCommand",
] as const;

export type LifecycleHook = (typeof LIFECYCLE_HOOKS)[number];

/** Rendered scripts of the hooks that have a command; problems as warnings. */
export interface RenderedLifecycle {
  readonly scripts: Partial<Record<LifecycleHook, string>>;
  readonly warnings: readonly string[];
}

/** Renders every hook `config` sets. */
export function renderLifecycleScripts(config: Record<string, unknown>): RenderedLifecycle {
  const scripts: Partial<Record<LifecycleHook, string>> = {};
  const warnings: string[] = [];
  for (const hook of LIFECYCLE_HOOKS) {
    if (config[hook] === undefined || config[hook] === null) continue;
    const lines = commandLines(config[hook], hook, warnings);
    if (lines.length > 0) scripts[hook] = ["#!/bin/sh", ...lines].join("\n") + "\n";
  }
  return { scripts, warnings };
}

function commandLines(command: unknown, where: string, warnings: string[]): string[] {
  const single = asCommand(command);
  if (single !== undefined) return single === "" ? [] : [`${single} || exit $?`];
  if (typeof command === "object" && command !== null && !Array.isArray(command)) {
    const entries = Object.entries(command).flatMap(([name, c]) => {
      const line = asCommand(c);
      if (line === undefined) {
        warnings.push(
          `${where}.${name} ${JSON.stringify(c)} is neither a string nor a list of strings; it is ignored.`,
        );
      }
      return line ? [[name, line] as const] : [];
    });
    if (entries.length === 0) return [];
    // Parallel: start all, then wait for each and keep the first failure's status.
    return [
      "status=0",
      // The name is a comment: a newline in it would start a command of its own.
      ...entries.flatMap(([name, line], i) => [
        // eslint-disable-next-line no-control-regex -- control characters are what it removes
        `# ${name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")}`,
        `( ${line} ) & pid_${i}=$!`,
      ]),
      ...entries.map((_, i) => `wait "$pid_${i}" || { rc=$?; [ "$status" -ne 0 ] || status=$rc; }`),
      'exit "$status"',
    ];
  }
  if (Array.isArray(command)) {
    const bad = command.findIndex((word) => typeof word !== "string");
    warnings.push(
      `${where}[${bad}] ${JSON.stringify(command[bad])} is not a string: a command list holds only strings; ${where} is ignored.`,
    );
  } else {
    warnings.push(
      `${where} ${JSON.stringify(command)} is neither a command, a list nor an object; it is ignored.`,
    );
  }
  return [];
}

/** A string or argv list as one shell command line; undefined for anything else. */
function asCommand(command: unknown): string | undefined {
  if (typeof command === "string") {
    return command.trim() === "" ? "" : `/bin/sh -c ${quotedWithReferences(command)}`;
  }
  if (Array.isArray(command) && command.every((w) => typeof w === "string")) {
    return (command as string[]).map(shellWord).join(" ");
  }
  return undefined;
}

/** For `sh -c`: the inner shell expands the references, so they stay inside the quotes. */
function quotedWithReferences(command: string): string {
  return singleQuoted(withShellReferences(command));
}
