/**
 * The subset of `runArgs` (docker run flags) that devcontainer-builder maps onto its
 * `runtime` and `hostRequirements` fields, for `npm run preview`. Everything else is
 * reported as a warning, as the service does; no host, network or device flag can apply
 * to a Kubernetes pod.
 *
 * The list is split into options the way `docker run` splits its argv: a flag that takes
 * a value consumes the next word unless the value is attached (`--ulimit=x`, `-m512m`),
 * short flags cluster (`-it`), and a boolean flag may be given `=true`/`=false`. A word
 * that is neither a flag nor a flag's value is reported on its own.
 *
 * Sizes use Docker's units (b, k, m, g; 1024-based), as `docker run` reads them.
 */

/** What the known flags ask for. Absent fields were not given. */
export interface RunArgsRuntime {
  readonly capAdd: readonly string[];
  readonly privileged: boolean;
  readonly init: boolean;
  readonly seccompUnconfined: boolean;
  readonly shmSizeBytes?: number;
  readonly hostname?: string;
  /** `--add-host name:ip`, grouped by ip in order of appearance. */
  readonly hostAliases: readonly { readonly ip: string; readonly hostnames: readonly string[] }[];
  /** The `--add-host` options behind each entry of `hostAliases`, as written. */
  readonly hostAliasSources: readonly (readonly string[])[];
  /** `-e/--env K=V`, in order. */
  readonly env: readonly (readonly [string, string])[];
  readonly cpus?: number;
  readonly memoryBytes?: number;
  /** Indexes of the runArgs entries that have no effect on the workspace (warned about). */
  readonly ignored: readonly number[];
  readonly warnings: readonly string[];
}

/** `docker run` options that take a value, by long name; short spellings below. */
const VALUE_OPTIONS = new Set([
  "add-host",
  "annotation",
  "attach",
  "blkio-weight",
  "blkio-weight-device",
  "cap-add",
  "cap-drop",
  "cgroup-parent",
  "cgroupns",
  "cidfile",
  "cpu-count",
  "cpu-percent",
  "cpu-period",
  "cpu-quota",
  "cpu-rt-period",
  "cpu-rt-runtime",
  "cpu-shares",
  "cpus",
  "cpuset-cpus",
  "cpuset-mems",
  "detach-keys",
  "device",
  "device-cgroup-rule",
  "device-read-bps",
  "device-read-iops",
  "device-write-bps",
  "device-write-iops",
  "dns",
  "dns-opt",
  "dns-option",
  "dns-search",
  "domainname",
  "entrypoint",
  "env",
  "env-file",
  "expose",
  "gpus",
  "group-add",
  "health-cmd",
  "health-interval",
  "health-retries",
  "health-start-interval",
  "health-start-period",
  "health-timeout",
  "hostname",
  "io-maxbandwidth",
  "io-maxiops",
  "ip",
  "ip6",
  "ipc",
  "isolation",
  "kernel-memory",
  "label",
  "label-file",
  "link",
  "link-local-ip",
  "log-driver",
  "log-opt",
  "mac-address",
  "memory",
  "memory-reservation",
  "memory-swap",
  "memory-swappiness",
  "mount",
  "name",
  "net",
  "net-alias",
  "network",
  "network-alias",
  "oom-score-adj",
  "pid",
  "pids-limit",
  "platform",
  "publish",
  "pull",
  "restart",
  "runtime",
  "security-opt",
  "shm-size",
  "stop-signal",
  "stop-timeout",
  "storage-opt",
  "sysctl",
  "tmpfs",
  "ulimit",
  "user",
  "userns",
  "uts",
  "volume",
  "volume-driver",
  "volumes-from",
  "workdir",
]);

/** `docker run` options that take no value (`--rm`, or `--rm=false`). */
const BOOLEAN_OPTIONS = new Set([
  "detach",
  "disable-content-trust",
  "help",
  "init",
  "interactive",
  "no-healthcheck",
  "oom-kill-disable",
  "privileged",
  "publish-all",
  "quiet",
  "read-only",
  "rm",
  "sig-proxy",
  "tty",
  "use-api-socket",
]);

/** Single-letter spellings. */
const SHORT_OPTIONS: Record<string, string> = {
  a: "attach",
  c: "cpu-shares",
  d: "detach",
  e: "env",
  h: "hostname",
  i: "interactive",
  l: "label",
  m: "memory",
  p: "publish",
  P: "publish-all",
  q: "quiet",
  t: "tty",
  u: "user",
  v: "volume",
  w: "workdir",
};

/** What the workspace does instead, for options people often put in runArgs. */
const INSTEAD: Record<string, string> = {
  network: "the pod is on the cluster network",
  net: "the pod is on the cluster network",
  device: "a pod has no access to the node's devices",
  gpus: "ask for a GPU with hostRequirements.gpu or customizations.kubernetes resources",
  ulimit: "the node's container runtime sets the limits",
  sysctl: "the template sets no pod sysctls",
  name: "the pod is named after the workspace",
  volume: "nothing is bound from a host; a named volume goes in mounts",
  mount: "use the mounts property",
  publish: "list the port in forwardPorts",
  "publish-all": "list the ports in forwardPorts",
  user: "use remoteUser or containerUser",
  workdir: "commands run from the workspace folder",
  entrypoint: "the pod always runs the Coder agent",
  "env-file": "there is no host file to read; use containerEnv",
  "cap-drop": "the container keeps the runtime's default capabilities",
  pid: "a pod has no access to the node's namespaces",
  ipc: "a pod has no access to the node's namespaces",
  uts: "a pod has no access to the node's namespaces",
  label: "the pod gets the template's labels",
  rm: "the workspace's pod is managed by Kubernetes",
  restart: "the workspace's pod is managed by Kubernetes",
  detach: "the workspace's pod is managed by Kubernetes",
  interactive: "the workspace's pod is managed by Kubernetes",
  tty: "the workspace's pod is managed by Kubernetes",
};

const DOCKER_UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Docker's size syntax (`512m`, `2g`, `1024`), in bytes; undefined when not one. */
export function dockerSizeBytes(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(text.trim());
  return m ? Math.floor(Number(m[1]) * DOCKER_UNITS[m[2].toLowerCase()]) : undefined;
}

/** One option as `docker run` would read it. */
interface RunOption {
  /** The long name, or undefined for a word that is not an option. */
  readonly name?: string;
  /** The value of a value option; "true"/"false" (or undefined) for a boolean one. */
  readonly value?: string;
  /** As the repository wrote it (flag and value joined with a space when they were two words). */
  readonly shown: string;
  /** The runArgs entries it was read from. */
  readonly entries: readonly number[];
  /** Why it cannot be read (unknown flag, missing value, not a string). */
  readonly problem?: string;
}

/** Splits runArgs into options, Docker's way. */
export function splitRunArgs(args: readonly unknown[]): RunOption[] {
  const options: RunOption[] = [];
  for (let i = 0; i < args.length; i++) {
    const raw = args[i];
    if (typeof raw !== "string") {
      options.push({
        shown: JSON.stringify(raw),
        entries: [i],
        problem: "is not a string",
      });
      continue;
    }
    // A value option without an attached value takes the next entry, whatever it is.
    const withNext = (name: string, shown: string): RunOption => {
      const next = args[i + 1];
      if (typeof next !== "string") {
        return { name, shown, entries: [i], problem: "has no value" };
      }
      i++;
      return { name, value: next, shown: `${shown} ${next}`, entries: [i - 1, i] };
    };
    if (raw.startsWith("--") && raw.length > 2) {
      const eq = raw.indexOf("=");
      const name = eq < 0 ? raw.slice(2) : raw.slice(2, eq);
      const attached = eq < 0 ? undefined : raw.slice(eq + 1);
      if (VALUE_OPTIONS.has(name)) {
        options.push(
          attached !== undefined
            ? { name, value: attached, shown: raw, entries: [i] }
            : withNext(name, raw),
        );
      } else if (BOOLEAN_OPTIONS.has(name)) {
        const ok = attached === undefined || attached === "true" || attached === "false";
        options.push({
          name,
          value: attached ?? "true",
          shown: raw,
          entries: [i],
          ...(ok ? {} : { problem: "takes only true or false" }),
        });
      } else {
        options.push({ shown: raw, entries: [i], problem: "is not a docker run option" });
      }
      continue;
    }
    if (raw.startsWith("-") && raw.length > 1 && raw !== "--") {
      // A cluster of short flags: booleans, then at most one value option that takes the
      // rest of the word (`-m512m`, `-e=A=1`) or the next entry.
      for (let at = 1; at < raw.length; at++) {
        const name = SHORT_OPTIONS[raw[at]];
        if (name === undefined) {
          options.push({
            shown: raw,
            entries: [i],
            problem: `is not a docker run option (-${raw[at]})`,
          });
          break;
        }
        if (VALUE_OPTIONS.has(name)) {
          const rest = raw.slice(at + 1).replace(/^=/, "");
          options.push(
            rest !== ""
              ? { name, value: rest, shown: raw, entries: [i] }
              : withNext(name, `-${raw[at]}`),
          );
          break;
        }
        options.push({ name, value: "true", shown: `-${raw[at]}`, entries: [i] });
      }
      continue;
    }
    options.push({
      shown: raw,
      entries: [i],
      problem: "is neither a docker run option nor an option's value",
    });
  }
  return options;
}

/** What runArgs set so far, option by option. */
interface RunArgsState {
  readonly capAdd: string[];
  readonly env: [string, string][];
  /** Host aliases by IP: the names and the options that gave them. */
  readonly aliases: Map<string, { hostnames: string[]; sources: string[] }>;
  privileged: boolean;
  init: boolean;
  seccompUnconfined: boolean;
  shmSizeBytes?: number;
  hostname?: string;
  cpus?: number;
  memoryBytes?: number;
}

/** Parses `runArgs`; a non-list or non-string entries become warnings. */
export function parseRunArgs(runArgs: unknown): RunArgsRuntime {
  const warnings: string[] = [];
  const ignored: number[] = [];
  const state: RunArgsState = {
    capAdd: [],
    env: [],
    aliases: new Map(),
    privileged: false,
    init: false,
    seccompUnconfined: false,
  };

  if (runArgs !== undefined && runArgs !== null && !Array.isArray(runArgs)) {
    warnings.push("runArgs is not a list; it is ignored.");
  }
  const args: readonly unknown[] = Array.isArray(runArgs) ? runArgs : [];
  for (const option of splitRunArgs(args)) {
    const ignore = (why: string) => {
      warnings.push(`runArgs ${option.shown} ${why}.`);
      ignored.push(...option.entries);
    };
    if (option.problem !== undefined) {
      ignore(`${option.problem}; it is ignored`);
      continue;
    }
    applyRunOption(state, option, ignore);
  }
  const { capAdd, privileged, init, seccompUnconfined, shmSizeBytes, hostname, aliases, env } =
    state;
  const { cpus, memoryBytes } = state;
  return {
    capAdd,
    privileged,
    init,
    seccompUnconfined,
    ...(shmSizeBytes !== undefined ? { shmSizeBytes } : {}),
    ...(hostname !== undefined ? { hostname } : {}),
    hostAliases: [...aliases].map(([ip, a]) => ({ ip, hostnames: a.hostnames })),
    hostAliasSources: [...aliases.values()].map((a) => a.sources),
    env,
    ...(cpus !== undefined ? { cpus } : {}),
    ...(memoryBytes !== undefined ? { memoryBytes } : {}),
    ignored: [...new Set(ignored)].sort((a, b) => a - b),
    warnings,
  };
}

/** One docker run option into `state`; `ignore` says why one is dropped. */
function applyRunOption(
  state: RunArgsState,
  option: RunOption,
  ignore: (why: string) => void,
): void {
  const value = option.value ?? "";
  switch (option.name) {
    case "privileged":
      state.privileged = value === "true";
      break;
    case "init":
      state.init = value === "true";
      break;
    case "cap-add":
      state.capAdd.push(...value.split(",").filter((c) => c !== ""));
      break;
    case "security-opt":
      if (value.replace(":", "=") === "seccomp=unconfined") state.seccompUnconfined = true;
      else ignore("is not supported; it is ignored");
      break;
    case "shm-size":
      state.shmSizeBytes = dockerSizeBytes(value);
      if (state.shmSizeBytes === undefined) ignore("is not a size; it is ignored");
      break;
    case "hostname":
      if (value.includes("${")) ignore("contains a variable; it is ignored");
      else state.hostname = value;
      break;
    case "add-host":
      // As Docker's CLI reads it: `host=ip` (Docker 25), else `host:ip` split at the first
      // ":" (an IPv6 address has more), an IPv6 address optionally in brackets.
      if (!addHostAlias(state.aliases, value, option.shown))
        ignore("is not host:ip; it is ignored");
      break;
    case "env": {
      const at = value.indexOf("=");
      // `-e NAME` alone passes the host's value, and there is no host: nothing to set.
      if (at > 0) state.env.push([value.slice(0, at), value.slice(at + 1)]);
      else ignore("takes a value from the host; it is ignored");
      break;
    }
    case "cpus":
      state.cpus =
        Number.isFinite(Number(value)) && value.trim() !== "" ? Number(value) : undefined;
      if (state.cpus === undefined) ignore("is not a number; it is ignored");
      break;
    case "memory":
      state.memoryBytes = dockerSizeBytes(value);
      if (state.memoryBytes === undefined) ignore("is not a size; it is ignored");
      break;
    default: {
      const instead = INSTEAD[option.name ?? ""];
      ignore(`is not supported on Kubernetes; it is ignored${instead ? ` (${instead})` : ""}`);
    }
  }
}

/** `host=ip` or `host:ip` added to `aliases`; false when `value` is neither. */
function addHostAlias(aliases: RunArgsState["aliases"], value: string, shown: string): boolean {
  const at = value.includes("=") ? value.indexOf("=") : value.indexOf(":");
  if (at <= 0) return false;
  const host = value.slice(0, at);
  const ip = value.slice(at + 1).replace(/^\[(.*)\]$/, "$1");
  const alias = aliases.get(ip) ?? { hostnames: [], sources: [] };
  alias.hostnames.push(host);
  alias.sources.push(shown);
  aliases.set(ip, alias);
  return true;
}

/** The template's name for a host alias in its warnings (the data source's field). */
const HOST_ALIAS_FIELD = /^runtime\.host_aliases\[(\d+)\](\.ip|\.hostnames)?:? (.*)$/s;

/**
 * `warnings` with each of the template's host-alias warnings worded after the repository's
 * `--add-host` options (`sources[i]` are those behind `runtime.host_aliases[i]`), keeping
 * the field the build log names at the end.
 */
export function quoteAddHostOptions(
  warnings: readonly string[],
  sources: readonly (readonly string[])[],
): string[] {
  return warnings.map((warning) => {
    const m = HOST_ALIAS_FIELD.exec(warning);
    const options = m ? sources[Number(m[1])] : undefined;
    if (m === null || options === undefined || options.length === 0) return warning;
    const field = `runtime.host_aliases[${m[1]}]${m[2] ?? ""}`;
    return `runArgs ${options.join(", ")}: ${m[3]} (the build log names it ${field})`;
  });
}
