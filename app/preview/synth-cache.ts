/**
 * `npm run preview`'s synthesized devcontainer templates, kept between runs in build/.
 *
 * Most previews synthesize the same template: only the repository differs, and it reaches the
 * template through the plan's inputs, not through synth. So a preview reuses the template an
 * earlier run synthesized from the same code (the bundle scripts/preview.js runs, rebuilt
 * whenever a source, a template file or the lockfile changes) and the same operator
 * configuration file (path and bytes), and synthesizes only when one of them changed. Entries
 * are written through a temp folder and renamed, so a concurrent run never reads half of one;
 * writing one removes the entries of other code versions.
 */
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

/** What {@link SynthCache} needs from its caller. */
export interface SynthCacheOptions {
  /** The cache's folder. */
  readonly dir: string;
  /** Changes whenever the synthesizing code changes (the bundle's size and mtime). */
  readonly codeVersion: string;
}

/** One synthesized template: its folder (read-only) and the configuration synth returned. */
export interface CachedTemplate {
  readonly dir: string;
  readonly model: Record<string, unknown>;
}

const TEMPLATE_DIR = "template";
const MODEL_FILE = "model.json";

function digest(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 20);
}

export class SynthCache {
  private readonly codePrefix: string;

  constructor(private readonly options: SynthCacheOptions) {
    this.codePrefix = digest(options.codeVersion);
  }

  /** The entry of a synth with the operator configuration `configFile` (none: undefined). */
  entryFor(configFile: string | undefined): string {
    const config =
      configFile === undefined
        ? "no configuration"
        : `${configFile}\0${readFileSync(configFile).toString("base64")}`;
    return join(this.options.dir, `${this.codePrefix}-${digest(config)}`);
  }

  /** The template kept in `entry`, if a run wrote it. */
  read(entry: string): CachedTemplate | undefined {
    const model = join(entry, MODEL_FILE);
    if (!existsSync(model)) return undefined;
    return {
      dir: join(entry, TEMPLATE_DIR),
      model: JSON.parse(readFileSync(model, "utf8")) as Record<string, unknown>,
    };
  }

  /** Keeps `template` as `entry`; other code versions' entries are removed. */
  write(entry: string, template: CachedTemplate): void {
    try {
      mkdirSync(this.options.dir, { recursive: true });
      for (const name of readdirSync(this.options.dir)) {
        if (!name.startsWith(`${this.codePrefix}-`)) {
          rmSync(join(this.options.dir, name), { recursive: true, force: true });
        }
      }
      const partial = `${entry}.${process.pid}.tmp`;
      rmSync(partial, { recursive: true, force: true });
      cpSync(template.dir, join(partial, TEMPLATE_DIR), { recursive: true });
      writeFileSync(join(partial, MODEL_FILE), JSON.stringify(template.model));
      if (existsSync(entry)) rmSync(partial, { recursive: true, force: true });
      else renameSync(partial, entry);
    } catch {
      // A cache that cannot be written only costs the next preview a synth.
    }
  }
}
