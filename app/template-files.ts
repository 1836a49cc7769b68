import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../lib/core/project-root";
import { HCL_FILES } from "../lib/private/hcl-files";
import { writeShippedFiles } from "../lib/core/shipped-file";
import { WORKSPACE_TAGS_FILE } from "./workspace-tags";
import type { TemplateFrontMatter, TemplateStack } from "../lib/constructs/template-stack";

/** Names Coder's CLI would skip or that must never be uploaded with a template. */
const FORBIDDEN = [/^\./, /\.tfstate/, /^terraform\.tfvars(\.json)?$/, /\.auto\.tfvars(\.json)?$/];

/** Files synth writes into the template folder, which a listed extra file must not replace. */
const SYNTHESIZED = ["cdk.tf.json", ...HCL_FILES, WORKSPACE_TAGS_FILE];

/**
 * Writes the files a template ships beside cdk.tf.json: its README.md with
 * Coder's front matter (display name, description, icon), the files its constructs
 * ship (scripts, see ShippedFile) and the extra files and folders it lists. Fails with
 * the file name when a source is missing or would not be uploaded by
 * `coder templates push`.
 */
export function shipTemplateFiles(stack: TemplateStack, stackDir: string): string[] {
  const root = projectRoot();
  const sourceDir = path.join(root, stack.sourceDir);
  const readmeSource = path.join(sourceDir, "README.md");
  if (!fs.existsSync(readmeSource)) {
    throw new Error(
      `${path.join(stack.sourceDir, "README.md")}: missing; every template ships a README`,
    );
  }
  const shipped = ["README.md", ...writeShippedFiles(stack, stackDir)];
  fs.writeFileSync(
    path.join(stackDir, "README.md"),
    renderFrontMatter(stack.frontMatter) + fs.readFileSync(readmeSource, "utf8"),
  );
  for (const rel of stack.extraFiles) {
    const src = path.join(sourceDir, rel);
    if (!fs.existsSync(src))
      throw new Error(`${path.join(stack.sourceDir, rel)}: listed in extraFiles but missing`);
    for (const file of listFiles(src)) {
      const relFile = path.join(rel, path.relative(src, file));
      const bad = relFile.split(path.sep).find((part) => FORBIDDEN.some((re) => re.test(part)));
      if (bad !== undefined) {
        throw new Error(
          `${path.join(stack.sourceDir, relFile)}: "${bad}" would be skipped or refused by coder templates push`,
        );
      }
      if (SYNTHESIZED.includes(relFile)) {
        throw new Error(
          `${path.join(stack.sourceDir, relFile)}: "${relFile}" is written by synth; ship it under another name`,
        );
      }
      const dest = path.join(stackDir, relFile);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(file, dest);
      fs.chmodSync(dest, fs.statSync(file).mode & 0o777);
      // A file a construct ships (read with file()) may sit in an extra folder too.
      const shippedPath = relFile.split(path.sep).join("/");
      if (!shipped.includes(shippedPath)) shipped.push(shippedPath);
    }
  }
  return shipped.sort();
}

/**
 * YAML front matter; values are JSON strings, which YAML reads as they are. Coder's UI
 * hides it in the template's docs; no released CLI reads it, which is why push runs
 * `coder templates edit` too.
 */
export function renderFrontMatter(fm: TemplateFrontMatter): string {
  return [
    "---",
    `display_name: ${JSON.stringify(fm.displayName)}`,
    `description: ${JSON.stringify(fm.description)}`,
    `icon: ${JSON.stringify(fm.icon)}`,
    "---",
    "",
  ].join("\n");
}

function listFiles(p: string): string[] {
  if (!fs.statSync(p).isDirectory()) return [p];
  return fs
    .readdirSync(p)
    .sort()
    .flatMap((e) => listFiles(path.join(p, e)));
}
