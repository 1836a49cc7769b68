/**
 * devcontainer.json `mounts` in the data source's shape (`{kind, source, target,
 * read_only}`), as devcontainer-builder reports them: volume and tmpfs mounts are kept in
 * order, bind mounts are dropped with a warning (a pod has no host to bind from). Of mounts
 * with the same target only the last is kept, as the Dev Containers CLI merges them into the
 * configuration the service reads (imageMetadata.ts mergeMounts).
 */

/** One mount as the data source lists it. */
export interface DataSourceMount {
  readonly kind: "volume" | "tmpfs";
  readonly source: string | null;
  readonly target: string;
  readonly read_only: boolean;
}

/** Kept mounts and warnings about the others. */
export interface MappedMounts {
  readonly mounts: readonly DataSourceMount[];
  /** Indexes of the entries that are dropped: warned about, or replaced by a later mount at their target. */
  readonly ignored: readonly number[];
  readonly warnings: readonly string[];
}

/** Maps the `mounts` property (strings in `docker --mount` syntax, or objects). */
export function mapMounts(value: unknown): MappedMounts {
  if (value === undefined || value === null) return { mounts: [], ignored: [], warnings: [] };
  if (!Array.isArray(value))
    return { mounts: [], ignored: [], warnings: ["mounts is not a list; it is ignored."] };
  const mounts: DataSourceMount[] = [];
  const ignored: number[] = [];
  const warnings: string[] = [];
  const entries = (value as unknown[]).map((entry) =>
    typeof entry === "string" ? mountStringFields(entry) : mountObjectFields(entry),
  );
  const lastForTarget = new Map<string, number>();
  entries.forEach((fields, index) => {
    if (fields?.target !== undefined) lastForTarget.set(fields.target, index);
  });
  for (const [index, entry] of (value as unknown[]).entries()) {
    const drop = (warning: string) => {
      warnings.push(warning);
      ignored.push(index);
    };
    const fields = entries[index];
    if (fields?.target !== undefined && lastForTarget.get(fields.target) !== index) {
      ignored.push(index); // a later mount has its target: the CLI's merge keeps that one
      continue;
    }
    const shown = typeof entry === "string" ? entry : JSON.stringify(entry);
    if (fields === undefined || fields.target === undefined) {
      drop(`mount ${shown} has no target; it is ignored.`);
      continue;
    }
    const kind = fields.type ?? "volume";
    if (kind === "bind") {
      drop(
        `bind mount of ${fields.source ?? "?"} at ${fields.target} is not supported (no host); it is ignored.`,
      );
      continue;
    }
    if (kind !== "volume" && kind !== "tmpfs") {
      drop(`mount type ${kind} at ${fields.target} is not supported; it is ignored.`);
      continue;
    }
    mounts.push({
      kind,
      source: kind === "volume" && fields.source ? fields.source : null,
      target: fields.target,
      read_only: fields.readOnly,
    });
  }
  return { mounts, ignored, warnings };
}

interface MountFields {
  readonly type?: string;
  readonly source?: string;
  readonly target?: string;
  readonly readOnly: boolean;
}

/** `type=volume,source=x,target=/y,readonly` (Docker's `--mount` syntax and its aliases). */
function mountStringFields(text: string): MountFields {
  const fields: Record<string, string> = {};
  let readOnly = false;
  for (const part of text.split(",")) {
    const at = part.indexOf("=");
    const key = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? "" : part.slice(at + 1).trim();
    if (key === "readonly" || key === "ro") readOnly = at < 0 || value === "true" || value === "1";
    else if (key === "src" || key === "source") fields.source = value;
    else if (key === "dst" || key === "destination" || key === "target") fields.target = value;
    else if (key === "type") fields.type = value;
  }
  return { ...fields, readOnly };
}

function mountObjectFields(entry: unknown): MountFields | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
  const o = entry as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  return {
    type: text(o.type),
    source: text(o.source),
    target: text(o.target),
    readOnly: o.readOnly === true || o.readonly === true,
  };
}
