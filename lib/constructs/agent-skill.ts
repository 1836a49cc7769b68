/**
 * A manual for the AI agents that work in a workspace, installed as a *skill*: a `SKILL.md`
 * whose front matter names it (`name`) and says when to use it (`description`). Coder Agents
 * (the agent loop in Coder's control plane) read skills from `~/.coder/skills/<name>/` of the
 * workspace they attach to: the workspace agent lists each skill's name and description in
 * the chat's prompt and serves the body when the agent asks for it. Claude Code in the
 * workspace reads `~/.claude/skills/<name>/`. One start script writes both.
 *
 * Coder reports a skill as invalid (and gives the chat none of it) when its name is not
 * kebab-case or differs from its folder, and as oversize above 64 KiB: both are checked here,
 * at synth, so a template never ships a manual the agent cannot read.
 */
import { Construct, Token } from "../core/cdk";
import { embeddedScript } from "../core/embedded-script";
import { readProjectFile } from "../core/project-root";
import { ShippedFile } from "../core/shipped-file";
import type { WorkspaceAgent } from "./workspace-agent";
import { WorkspaceScript } from "./workspace-script";

/** Coder's limit for a SKILL.md (larger ones are listed as oversize, with no content). */
export const SKILL_MAX_BYTES = 64 * 1024;
/** Coder's rule for a skill name (and its folder's). */
export const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const INSTALL_SCRIPT = "lib/constructs/scripts/install-agent-skill.sh";

export interface AgentSkillProps {
  readonly agent: WorkspaceAgent;
  /** The SKILL.md, by path from the project root (e.g. `templates/x/subagents/x.md`). */
  readonly source: string;
  /** Where it ships in the template folder (e.g. `subagents/x.md`). */
  readonly path: string;
  /** Instances, e.g. the workspace's start_count. @default 1 */
  readonly count?: number;
}

/** The front matter fields of a skill, read at synth. */
export interface SkillFrontMatter {
  readonly name: string;
  readonly description: string;
}

/** `name` and `description` of a SKILL.md's front matter; throws when either is missing. */
export function skillFrontMatter(text: string, where: string): SkillFrontMatter {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) throw new Error(`${where}: a skill starts with a --- front matter block ---`);
  const field = (key: string): string | undefined => {
    const line = new RegExp(`^${key}:[ \\t]*(.*)$`, "m").exec(match[1]);
    return line?.[1].trim().replace(/^"(.*)"$/, "$1");
  };
  const name = field("name");
  const description = field("description");
  if (!name || !description) {
    throw new Error(`${where}: the front matter needs a name and a description`);
  }
  return { name, description };
}

/** `coder_script.<id>`: installs the skill at every start (the home may not persist). */
export class AgentSkill extends Construct {
  public readonly name: string;
  public readonly description: string;
  public readonly script: WorkspaceScript;

  constructor(scope: Construct, id: string, props: AgentSkillProps) {
    super(scope, `${id}_skill`);
    const text = readProjectFile(props.source);
    const { name, description } = skillFrontMatter(text, props.source);
    if (!SKILL_NAME.test(name)) {
      throw new Error(`${props.source}: skill name "${name}" is not kebab-case (${SKILL_NAME})`);
    }
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > SKILL_MAX_BYTES) {
      throw new Error(
        `${props.source}: ${bytes} bytes; Coder reads a SKILL.md of at most ${SKILL_MAX_BYTES}`,
      );
    }
    this.name = name;
    this.description = description;
    const manual = ShippedFile.of(this, { source: props.source, path: props.path });
    this.script = new WorkspaceScript(this, id, {
      agent: props.agent,
      displayName: "Install the agent manual",
      icon: "/emojis/1f4d6.png",
      runOnStart: true,
      count: props.count,
      script: embeddedScript(this, INSTALL_SCRIPT, [
        { name: "SKILL_NAME", value: name },
        {
          name: "SKILL_B64",
          value: Token.asString(manual.fileExpression()),
          encoding: "base64",
        },
      ]),
    });
  }
}
