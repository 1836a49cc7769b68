/**
 * The synthesized templates as an operator reads them in Coder's editor (issue 37 item 6):
 * no script or long text written on one line, no expression written out again and again
 * where one local would do, and a one-line why above every local whose name does not say
 * it all. (test/core/hcl-heredoc.test.ts proves the heredocs keep the bytes.)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { App, TerraformLocal } from "../../lib/core/cdk";
import { localWhy } from "../../lib/core/local-comments";
import { TEMPLATES } from "../../app/registry";
import { HCL_FILES } from "../../lib/private/hcl-files";
import { localNames } from "../../lib/private/locals-file";
import { synthTemplate } from "../support/synth-template";
import { quotedStrings, repeatedExpressions } from "../support/hcl-text";

/** A quoted string holding this many `\n` escapes (three lines) is a script or text on one line. */
const MAX_NEWLINE_ESCAPES = 1;
/** An expression of at least this many characters, written this many times, is one local. */
const REPEAT_MIN_LENGTH = 40;
const REPEAT_MIN_COUNT = 3;

/**
 * Expressions that stay repeated, each with the reason. Keep it short: anything else that
 * repeats becomes a local (NamedLocals.add, or NamedLocals.shared across constructs).
 */
const ALLOWED_REPEATS: Readonly<Record<string, string>> = {
  // scalarString() of a for expression's own variable (requests, limits, node selector): a
  // local cannot read a loop variable.
  'can(regex("^[\\"0-9-]", jsonencode(value)))': "a loop variable's test",
  // app.kubernetes.io/instance of a Deployment, its selector and its pod template: the three
  // must match, and written out in place they visibly do.
  '"coder-workspace-${data.coder_workspace.me.id}"': "a selector's label value",
  '"coder-identity-${data.coder_workspace.me.id}"': "a selector's label value",
};

/** A why is one line of locals.tf: `    # ` (a layer's member) and the text within 100 columns. */
const MAX_WHY_LENGTH = 94;
/** A local whose expression (Terraform JSON) is longer than this carries a why... */
const LONG_EXPRESSION = 300;
/** ...unless it is a list of warnings: each warning's text says why. */
const SAYS_ITSELF = /_warnings$/;
/** Short locals that are not obvious from their name: each must say why it exists. */
const NON_OBVIOUS: Readonly<Record<string, readonly string[]>> = {
  devcontainer: [
    "control_characters",
    "unused_workspace_folder_mount",
    "dc",
    "image_tag",
    "git_repository_url_parts",
    "forward_ports_read",
    "forward_ports_labels",
    "dc_mounts",
    "dc_configuration",
    "remote_user",
    "uid",
    "home_dir",
    "k8s_resources_set",
    "cpu_request",
    "cpu_limit_raised",
    "memory_limit_raised",
    "disk_size",
    "extended_resource_maxima",
    "gpu_limits",
    "workspace_folder",
    "repository_folder",
    "capabilities_requested",
    "privileged",
    "seccomp_profiles",
    "shm_size_limit",
    "hostname",
    "wait_for",
    "login_blocking_hooks",
    "missing_variables",
    "all_warnings",
  ],
  "packer-builder": ["workspace_key", "workspace_name_label", "harvester_namespace"],
};

describe.each(TEMPLATES.map((t) => t.id))("template %s, as written to its folder", (id) => {
  const texts: Record<string, string> = {};
  beforeAll(() => {
    const synthesized = synthTemplate(id);
    try {
      for (const name of HCL_FILES) {
        const file = path.join(synthesized.dir, name);
        if (fs.existsSync(file)) texts[name] = fs.readFileSync(file, "utf8");
      }
    } finally {
      synthesized.cleanup();
    }
  });

  it("writes no script or long text on one line: a heredoc or a shipped file instead", () => {
    const oneLine = Object.entries(texts).flatMap(([file, text]) =>
      quotedStrings(text)
        .filter((s) => (s.text.match(/\\n/g) ?? []).length > MAX_NEWLINE_ESCAPES)
        .map((s) => `${file}:${s.line}: ${s.text.slice(0, 80)}…`),
    );
    expect(oneLine).toEqual([]);
  });

  it("writes no expression of 40 characters or more three times: it is one local", () => {
    const repeated = Object.entries(texts).flatMap(([file, text]) =>
      repeatedExpressions(text, REPEAT_MIN_LENGTH, REPEAT_MIN_COUNT)
        .filter((r) => !(r.expression in ALLOWED_REPEATS))
        .map((r) => `${file}: ${r.count}× ${r.expression}`),
    );
    expect(repeated).toEqual([]);
  });
});

describe.each(TEMPLATES.map((t) => t.id))("template %s, its locals", (id) => {
  const locals: { name: string; why: string | undefined; length: number }[] = [];
  let localsFile = "";
  beforeAll(() => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "readable-output-"));
    try {
      const stack = TEMPLATES.find((t) => t.id === id)!.create(new App({ outdir }));
      const json = (stack.toTerraform() as { locals?: Record<string, unknown> }).locals ?? {};
      for (const c of stack.node.findAll()) {
        if (!(c instanceof TerraformLocal)) continue;
        const name = c.friendlyUniqueId;
        locals.push({ name, why: localWhy(c), length: JSON.stringify(json[name]).length });
      }
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
    const synthesized = synthTemplate(id);
    try {
      const file = path.join(synthesized.dir, "locals.tf");
      if (fs.existsSync(file)) localsFile = fs.readFileSync(file, "utf8");
    } finally {
      synthesized.cleanup();
    }
  });

  it("gives every long local and every listed one its why", () => {
    const named = new Set(NON_OBVIOUS[id] ?? []);
    const missing = locals
      .filter((l) => named.has(l.name) || (l.length > LONG_EXPRESSION && !SAYS_ITSELF.test(l.name)))
      .filter((l) => l.why === undefined)
      .map((l) => `${l.name} (${l.length} characters)`);
    expect(missing).toEqual([]);
    // A listed name that is no local of the template is a stale entry.
    expect([...named].filter((n) => !locals.some((l) => l.name === n))).toEqual([]);
  });

  it("keeps each why to one short line, written above its local in locals.tf", () => {
    const whys = locals.filter((l) => l.why !== undefined);
    // A local folded into its reader (lib/private/inline-locals.ts) is not in locals.tf.
    const shipped = new Set(localNames(localsFile));
    expect(whys.filter((l) => l.why!.length > MAX_WHY_LENGTH).map((l) => l.name)).toEqual([]);
    // The renderer may wrap or indent a comment: compared with the comment markers collapsed.
    const comments = localsFile.replace(/\n\s*#\s?/g, " ");
    expect(
      whys.filter((l) => shipped.has(l.name) && !comments.includes(l.why!)).map((l) => l.name),
    ).toEqual([]);
  });
});

describe("the scanner behind these checks", () => {
  const text = [
    "locals {",
    '  a = trimspace(replace(var.label, "/[[:cntrl:]]/", " "))',
    '  b = upper(trimspace(replace(var.label, "/[[:cntrl:]]/", " ")))',
    '  c = [for x in var.xs : trimspace(replace(var.label, "/[[:cntrl:]]/", " ")) if x]',
    '  # trimspace(replace(var.label, "/[[:cntrl:]]/", " ")) in a comment does not count',
    '  script = "#!/bin/sh\\necho one\\necho two"',
    "  heredoc = <<-EOT",
    '    trimspace(replace(var.label, "/[[:cntrl:]]/", " ")) in a heredoc does not count',
    "  EOT",
    "}",
  ].join("\n");

  it("finds an expression written three times, wherever its line breaks fall", () => {
    const spread = text.replace("upper(trimspace(", "upper(\n    trimspace(\n      ");
    for (const t of [text, spread]) {
      expect(repeatedExpressions(t, 40, 3).map((r) => [r.count, r.expression])).toEqual([
        [3, 'replace(var.label, "/[[:cntrl:]]/", " ")'],
        [3, 'trimspace(replace(var.label, "/[[:cntrl:]]/", " "))'],
      ]);
    }
    expect(repeatedExpressions(text, 40, 4)).toEqual([]);
  });

  it("finds a script written as one quoted string", () => {
    const scripts = quotedStrings(text).filter((s) => s.text.includes("\\n"));
    expect(scripts).toEqual([{ line: 6, text: '"#!/bin/sh\\necho one\\necho two"' }]);
  });
});
