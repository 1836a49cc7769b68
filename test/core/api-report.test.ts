/**
 * The API report (docs/api-report.md, app/api-report.ts) is the public API's contract: it is
 * regenerated from lib/index.ts here and must equal the committed page, so that a change of a
 * template-facing signature is a reviewed diff, and no public signature names a type the
 * index does not export.
 */
import * as fs from "fs";
import * as path from "path";
import { API_REPORT_COMMAND, API_REPORT_FILE, renderApiReport } from "../../app/api-report";
import { projectRoot } from "../../lib/core/project-root";

const root = projectRoot();
const report = renderApiReport(root);

test(`docs/api-report.md is the current public API (\`npm run api:update\` when this fails)`, () => {
  const committed = fs.readFileSync(path.join(root, API_REPORT_FILE), "utf8");
  // A message that names the command, then the diff.
  if (committed !== report) {
    expect(`${API_REPORT_FILE} is stale: run \`${API_REPORT_COMMAND}\``).toBe("current");
  }
  expect(committed).toBe(report);
});

test("no public signature uses a project type the index does not export", () => {
  expect(report).toMatch(/Types a public signature uses but the index does not export:\nnone\./);
});

test("the report lists named exports only, each under the module that declares it", () => {
  const index = fs.readFileSync(path.join(root, "lib/index.ts"), "utf8");
  expect(index).not.toMatch(/export \*/);
  expect(report).toMatch(
    /## lib\/constructs\/workspace-agent\.ts\n\n```ts\n[^`]*class WorkspaceAgent/,
  );
  // A library-only constant stays out of the index, and so out of the report.
  expect(report).not.toContain("RESTRICTED_CONTAINER_SECURITY");
});

/** The names lib/index.ts exports, each with the module that declares it. */
function exportedNames(): { name: string; module: string }[] {
  const index = fs.readFileSync(path.join(root, "lib/index.ts"), "utf8");
  const found: { name: string; module: string }[] = [];
  for (const match of index.matchAll(/export\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    for (const item of match[1].split(",").map((s) => s.trim())) {
      if (item === "") continue;
      found.push({ name: item.replace(/^type /, ""), module: match[2] });
    }
  }
  return found;
}

/** The text of every source file that uses the library (templates, app, scripts) and docs sample. */
function productSources(): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (rel.endsWith(".ts")) sources.set(rel, fs.readFileSync(path.join(root, rel), "utf8"));
    }
  };
  ["templates", "app", "scripts"].forEach(walk);
  sources.set("main.ts", fs.readFileSync(path.join(root, "main.ts"), "utf8"));
  // The TypeScript samples of the hand-written docs: what they show a template doing.
  for (const page of fs.readdirSync(path.join(root, "docs"))) {
    if (!page.endsWith(".md") || page === "api-report.md") continue;
    const text = fs.readFileSync(path.join(root, "docs", page), "utf8");
    const samples = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    sources.set(`docs/${page}`, samples.join("\n"));
  }
  return sources;
}

test("the index exports at most 130 names (issue 45): the contract templates see stays small", () => {
  const count = Number(/The (\d+) names lib\/index\.ts exports/.exec(report)?.[1]);
  expect(count).toBe(exportedNames().length);
  expect(count).toBeLessThanOrEqual(130);
});

test("nothing is exported only for tests: each name is used outside test/ (or in a docs sample), or is a construct or a type of a public signature", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require("../../lib") as Record<string, unknown>;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Construct } = require("../../lib/core/cdk") as typeof import("../../lib/core/cdk");
  const sources = productSources();
  const testOnly = exportedNames().filter(({ name }) => {
    const word = new RegExp(`\\b${name}\\b`);
    // A use inside lib/ is no reason to export: the library imports its modules directly.
    const usedOutside = [...sources.values()].some((text) => word.test(text));
    if (usedOutside) return false;
    const value = lib[name];
    // A construct is a building block a platform team's template composes.
    if (typeof value === "function" && value.prototype instanceof Construct) return false;
    // A type or class that some exported declaration names (its props, a return type).
    const uses = report.match(new RegExp(`\\b${name}\\b`, "g"))?.length ?? 0;
    return uses < 2;
  });
  expect(testOnly.map(({ name }) => name)).toEqual([]);
});
