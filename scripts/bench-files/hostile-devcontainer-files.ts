/**
 * The worst devcontainer.json files a repository can commit under preview's 1 MiB limit
 * (issue 32.2): each fills one list or map that reaches the template (or preview's own
 * metadata step) with as many entries as fit, and `everything` fills them all at once. The
 * bench (`npm run bench`, scripts/bench.js) plans a start with each against a typical file; the caps
 * must keep every one within a small multiple of it.
 */
import { MAX_DEVCONTAINER_FILE_BYTES } from "../../app/preview/devcontainer-file";

/** A typical configuration: an image, a few ports, extensions, a hook, some resources. */
export const TYPICAL_DEVCONTAINER: Record<string, unknown> = {
  name: "app",
  image: "mcr.microsoft.com/devcontainers/typescript-node:20",
  forwardPorts: [3000, 5432],
  portsAttributes: { "3000": { label: "Web" } },
  postCreateCommand: "npm ci",
  containerEnv: { NODE_ENV: "development" },
  customizations: {
    vscode: { extensions: ["dbaeumer.vscode-eslint", "esbenp.prettier-vscode"] },
    kubernetes: { resources: { requests: { cpu: "1", memory: "2Gi" } } },
  },
};

/**
 * One list or map a hostile file fills: `entry(i)` is its i-th entry, `place(entries)` the
 * configuration holding them (an array of entries, or of `[key, value]` pairs for a map).
 */
interface HostileField {
  readonly entry: (i: number) => unknown;
  readonly place: (entries: unknown[]) => Record<string, unknown>;
}

const asMap = (entries: unknown[]) => Object.fromEntries(entries as [string, unknown][]);
const kubernetes = (value: Record<string, unknown>) => ({ customizations: { kubernetes: value } });

/** Every list and map of devcontainer.json that reaches a list the template or preview walks. */
export const HOSTILE_FIELDS: Readonly<Record<string, HostileField>> = {
  tolerations: {
    entry: (i) => ({ key: `k${i}`, operator: "Exists", effect: "NoSchedule" }),
    place: (entries) => kubernetes({ tolerations: entries }),
  },
  nodeSelector: {
    entry: (i) => [`k${i}`, "v"],
    place: (entries) => kubernetes({ nodeSelector: asMap(entries) }),
  },
  resourceLimits: {
    entry: (i) => [`example.com/r${i}`, "1"],
    place: (entries) => kubernetes({ resources: { limits: asMap(entries) } }),
  },
  kubernetesKeys: {
    entry: (i) => [`x${i}`, 1],
    place: (entries) => kubernetes(asMap(entries)),
  },
  capAdd: { entry: (i) => `C${i}`, place: (entries) => ({ capAdd: entries }) },
  runArgsCapAdd: {
    entry: (i) => `--cap-add=C${i}`,
    place: (entries) => ({ runArgs: entries }),
  },
  hostAliases: {
    entry: (i) => `--add-host=h${i}:10.0.0.1`,
    place: (entries) => ({ runArgs: entries }),
  },
  forwardPorts: { entry: (i) => (i % 65535) + 1, place: (entries) => ({ forwardPorts: entries }) },
  badForwardPorts: { entry: (i) => `p${i}`, place: (entries) => ({ forwardPorts: entries }) },
  mounts: {
    entry: (i) => `type=volume,source=v${i},target=/m/${i}`,
    place: (entries) => ({ mounts: entries }),
  },
  extensions: {
    entry: (i) => `a.b${i}`,
    place: (entries) => ({ customizations: { vscode: { extensions: entries } } }),
  },
  securityOpt: { entry: (i) => `o${i}`, place: (entries) => ({ securityOpt: entries }) },
  variables: {
    entry: (i) => [`E${i}`, `\${localEnv:V${i}}`],
    place: (entries) => ({ remoteEnv: asMap(entries) }),
  },
  variableUses: {
    entry: (i) => `\${localEnv:V}${i}`,
    place: (entries) => ({ postCreateCommand: entries }),
  },
  containerEnv: {
    entry: (i) => [`E${i}`, "x"],
    place: (entries) => ({ containerEnv: asMap(entries) }),
  },
  // Issue 43.5: a Compose file list, which only the build log's warning quotes.
  dockerComposeFile: {
    entry: (i) => `c${i}.yml`,
    place: (entries) => ({ dockerComposeFile: entries, service: "app" }),
  },
  // Issue 43.10: ports with labels, each a portsAttributes entry the port table reads.
  labelledForwardPorts: {
    entry: (i) => ({ port: (i % 65535) + 1, label: `Port label ${i}` }),
    place: (entries) => {
      const ports = entries as { port: number; label: string }[];
      return {
        forwardPorts: ports.map((p) => p.port),
        portsAttributes: Object.fromEntries(ports.map((p) => [`${p.port}`, { label: p.label }])),
      };
    },
  },
};

/** `TYPICAL_DEVCONTAINER` with `field` filled until the file has about `budget` bytes. */
function filled(
  base: Record<string, unknown>,
  field: HostileField,
  budget: number,
): Record<string, unknown> {
  const entries: unknown[] = [];
  let bytes = 0;
  for (let i = 0; bytes < budget; i++) {
    const entry = field.entry(i);
    entries.push(entry);
    bytes += JSON.stringify(entry).length + 1;
  }
  return merge(base, field.place(entries));
}

/** `a` with `b`'s keys merged in, objects recursively. */
function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const old = out[key];
    out[key] =
      isObject(old) && isObject(value)
        ? merge(old, value)
        : Array.isArray(old) && Array.isArray(value)
          ? [...old, ...value]
          : value;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Room left for the entries: the file must stay under preview's limit. */
const BUDGET = MAX_DEVCONTAINER_FILE_BYTES - 16 * 1024;

/**
 * The hostile files by name, as JSON texts of at most MAX_DEVCONTAINER_FILE_BYTES: one per
 * field of {@link HOSTILE_FIELDS}, and `everything`, which shares the budget among them all.
 */
export function hostileDevcontainerFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, field] of Object.entries(HOSTILE_FIELDS)) {
    files[name] = JSON.stringify(filled(TYPICAL_DEVCONTAINER, field, BUDGET));
  }
  const share = BUDGET / Object.keys(HOSTILE_FIELDS).length;
  files.everything = JSON.stringify(
    Object.values(HOSTILE_FIELDS).reduce((config, field) => filled(config, field, share), {
      ...TYPICAL_DEVCONTAINER,
    }),
  );
  for (const [name, text] of Object.entries(files)) {
    if (Buffer.byteLength(text) > MAX_DEVCONTAINER_FILE_BYTES) {
      throw new Error(`hostile file ${name} is ${Buffer.byteLength(text)} bytes, over the limit`);
    }
  }
  return files;
}
