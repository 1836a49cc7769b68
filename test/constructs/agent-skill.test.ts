/**
 * AgentSkill: a SKILL.md checked at synth against Coder's rules for workspace skills, and the
 * start script that installs it, run for real with sh (dash), bash and BusyBox sh.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentSkill, SKILL_MAX_BYTES, skillFrontMatter } from "../../lib/constructs/agent-skill";
import { WorkspaceAgent } from "../../lib/constructs/workspace-agent";
import { projectRoot } from "../../lib/core/project-root";
import { synthConstruct } from "./construct-stack";
import { describeWithTool, type OptionalTool } from "../support/optional-tools";

const MANUAL = "templates/packer-builder/subagents/packer-builder.md";
const SCRIPT = join(projectRoot(), "lib/constructs/scripts/install-agent-skill.sh");
const FIXTURES = "test/constructs/fixtures/skills";

describe("at synth", () => {
  it("is coder_script.<id> that writes the manual base64-encoded, with its front matter name", () => {
    const tf = synthConstruct((stack) => {
      const agent = new WorkspaceAgent(stack, "agent");
      const skill = new AgentSkill(stack, "manual", { agent, source: MANUAL, path: "m/x.md" });
      expect(skill.name).toBe("packer-builder");
      expect(skill.description).toMatch(/^Builds and publishes Packer VM images/);
    });
    const script = tf.resource.coder_script.manual;
    expect(script.run_on_start).toBe(true);
    expect(script.script).toContain("SKILL_NAME='packer-builder'\n");
    expect(script.script).toContain(`SKILL_B64='\${base64encode(file("\${path.module}/m/x.md"))}'`);
  });

  it.each([
    [`${FIXTURES}/bad-name.md`, /skill name "Packer_Builder" is not kebab-case/],
    [`${FIXTURES}/no-front-matter.md`, /a skill starts with a --- front matter block ---/],
  ])("refuses %s", (source, message) => {
    expect(() =>
      synthConstruct((stack) => {
        const agent = new WorkspaceAgent(stack, "agent");
        new AgentSkill(stack, "manual", { agent, source, path: "m/x.md" });
      }),
    ).toThrow(message);
  });

  it("refuses a manual over Coder's 64 KiB limit", () => {
    const big = `${FIXTURES}/.too-big.md`;
    const file = join(projectRoot(), big);
    writeFileSync(file, `---\nname: big\ndescription: d\n---\n${"x".repeat(SKILL_MAX_BYTES)}`);
    try {
      expect(() =>
        synthConstruct((stack) => {
          new AgentSkill(stack, "m", {
            agent: new WorkspaceAgent(stack, "agent"),
            source: big,
            path: "b.md",
          });
        }),
      ).toThrow(/bytes; Coder reads a SKILL.md of at most 65536/);
    } finally {
      rmSync(file);
    }
  });

  it("reads quoted and plain front matter values", () => {
    expect(skillFrontMatter('---\nname: a-b\ndescription: "Use it"\n---\nbody', "x")).toEqual({
      name: "a-b",
      description: "Use it",
    });
    expect(() => skillFrontMatter("---\nname: a\n---\n", "x.md")).toThrow(
      "x.md: the front matter needs a name and a description",
    );
  });
});

/** Each shell: its name, its argv, and the optional tool it needs (skipped, with why, without it). */
const SHELLS: readonly (readonly [string, readonly string[], OptionalTool?])[] = [
  ["sh", ["sh"]],
  ["bash", ["bash"]],
  ["busybox sh", ["busybox", "sh"], "busybox"],
];

for (const [name, shell, tool] of SHELLS) {
  const title = `install-agent-skill.sh with ${name}`;
  if (tool === undefined) describe(title, () => installTests(shell));
  else describeWithTool(tool, title, () => installTests(shell));
}

/** The script's tests, run with `shell`. */
function installTests(shell: readonly string[]): void {
  let root: string;
  let home: string;
  let bin: string;
  const skill = "---\nname: demo\ndescription: d\n---\n\n# Demo 'quoted' $HOME `x`\n";
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "skill-"));
    home = join(root, "home");
    bin = join(root, "bin");
    mkdirSync(home);
    mkdirSync(bin);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const run = (env: Record<string, string>) =>
    spawnSync(shell[0], [...shell.slice(1), SCRIPT], {
      encoding: "utf8",
      timeout: 20_000,
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: home, ...env },
    });
  const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
  const installed = (rootDir: string) => join(home, rootDir, "demo", "SKILL.md");
  const leftovers = (rootDir: string) =>
    readdirSync(join(home, rootDir, "demo")).filter((f) => f !== "SKILL.md");

  it("writes the SKILL.md byte for byte where Coder Agents and Claude Code look", () => {
    const r = run({ SKILL_NAME: "demo", SKILL_B64: b64(skill) });
    expect(r.status).toBe(0);
    for (const dir of [".coder/skills", ".claude/skills"]) {
      expect(readFileSync(installed(dir), "utf8")).toBe(skill);
      expect(leftovers(dir)).toEqual([]);
    }
    // Every start writes it again: an edited manual replaces the old one.
    expect(run({ SKILL_NAME: "demo", SKILL_B64: b64("v2") }).status).toBe(0);
    expect(readFileSync(installed(".coder/skills"), "utf8")).toBe("v2");
  });

  it("keeps the previous SKILL.md when decoding fails, and leaves no temporary file", () => {
    expect(
      run({ SKILL_NAME: "demo", SKILL_B64: b64(skill), SKILL_ROOTS: ".coder/skills" }).status,
    ).toBe(0);
    const r = run({
      SKILL_NAME: "demo",
      SKILL_B64: "%%%not base64%%%",
      SKILL_ROOTS: ".coder/skills",
    });
    expect(r.status).not.toBe(0);
    expect(readFileSync(installed(".coder/skills"), "utf8")).toBe(skill);
    expect(leftovers(".coder/skills")).toEqual([]);
  });

  it.each(["mktemp", "chmod", "mv"])(
    "keeps the previous SKILL.md when the start is killed at %s, and cleans up",
    (step) => {
      expect(
        run({ SKILL_NAME: "demo", SKILL_B64: b64(skill), SKILL_ROOTS: ".coder/skills" }).status,
      ).toBe(0);
      // The step's command ends the script with SIGTERM (as a stopping agent does) instead of running.
      writeFileSync(join(bin, step), `#!/bin/sh\nkill -TERM "$PPID"\nexit 0\n`, { mode: 0o755 });
      const r = run({ SKILL_NAME: "demo", SKILL_B64: b64("new"), SKILL_ROOTS: ".coder/skills" });
      expect(r.status).not.toBe(0);
      expect(readFileSync(installed(".coder/skills"), "utf8")).toBe(skill);
      expect(leftovers(".coder/skills")).toEqual([]);
    },
  );

  it.each(["Demo", "a_b", "-a", "a-", "a--b", "../x"])("refuses the skill name %p", (name) => {
    const r = run({ SKILL_NAME: name, SKILL_B64: b64(skill) });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("is not a kebab-case skill name");
    expect(existsSync(join(home, ".coder"))).toBe(false);
  });
}
