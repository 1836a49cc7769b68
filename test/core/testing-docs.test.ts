/**
 * docs/testing.md's examples import what the scaffold's plan test imports
 * (scripts/commands/new-template.ts): a contributor who copies an example gets paths that
 * resolve from test/templates/<id>/.
 */
import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../../lib/core/project-root";
import { scaffoldFiles } from "../../scripts/commands/new-template";

const importsOf = (text: string) =>
  [...text.matchAll(/^import [^;]*? from "([^"]+)";$/gms)].map((m) => m[1]);

test("every import in docs/testing.md's TypeScript examples is one the scaffold's plan test makes", () => {
  const doc = fs.readFileSync(path.join(projectRoot(), "docs/testing.md"), "utf8");
  const examples = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  const documented = [...new Set(examples.flatMap(importsOf))];
  const scaffolded = importsOf(scaffoldFiles("x")["test/templates/x/plan.test.ts"]);
  expect(documented.length).toBeGreaterThan(0);
  expect(documented.filter((m) => !scaffolded.includes(m))).toEqual([]);
});
