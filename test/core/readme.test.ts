/**
 * The README's promises: its template table is the registry's (generated, not hand-kept),
 * its --variables-file example sets variables the kubernetes template declares (every
 * required one, as strings), and every npm command it names exists.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { projectRoot } from "../../lib/core/project-root";
import { TEMPLATES } from "../../app/registry";
import { README_FILE, renderTemplateTable, withTemplateTable } from "../../app/readme-table";
import { synthTemplate } from "../support/synth-template";

const readme = fs.readFileSync(path.join(projectRoot(), README_FILE), "utf8");

test("the template table is generated from the registry (`npm run docs` when this fails)", () => {
  expect(withTemplateTable(readme)).toBe(readme);
  for (const t of TEMPLATES)
    expect(readme).toContain(`| [\`${t.id}\`](templates/${t.id}/README.md)`);
});

test("the table lists a template added to the registry", () => {
  const [first] = TEMPLATES;
  const extra = { ...first, id: "extra" };
  expect(renderTemplateTable([first, extra])).toContain("| [`extra`](templates/extra/README.md)");
});

test("the --variables-file example sets the kubernetes template's variables, as strings", () => {
  const example = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const values = parse(example!) as Record<string, unknown>;
  const { config, cleanup } = synthTemplate("kubernetes");
  try {
    const declared = (config.variable ?? {}) as Record<string, { default?: unknown }>;
    const required = Object.keys(declared).filter((n) => declared[n].default === undefined);
    expect(Object.keys(values).filter((n) => !(n in declared))).toEqual([]);
    expect(required.filter((n) => !(n in values))).toEqual([]);
    for (const value of Object.values(values)) expect(typeof value).toBe("string");
  } finally {
    cleanup();
  }
  expect(readme).toContain("--variables-file kubernetes-vars.yaml");
});

test("every `npm run` command it names is a script of package.json", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot(), "package.json"), "utf8"));
  const named = [...readme.matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1]);
  expect(named.length).toBeGreaterThan(5);
  expect([...new Set(named)].filter((n) => !(n in pkg.scripts))).toEqual([]);
});
