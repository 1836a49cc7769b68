/**
 * No synthesized template uses Coder Tasks (removed from Coder 2.37; a `coder_ai_task` is
 * ignored there) or holds an AI key for all its users: a template variable, module input or
 * agent environment variable with a model provider's key or token would reach every process,
 * script and repository of every workspace. AI sign-in is per user (Coder's AI Gateway or the
 * user's own user secret: lib/constructs/claude-code.ts).
 */
import { TEMPLATES } from "../../app/registry";
import { synthTemplate } from "../support/synth-template";

/** Names of variables and module inputs that would carry an AI credential. */
const AI_CREDENTIAL_NAME =
  /(anthropic|openai|claude|gemini|ai_task|llm|model).*(key|token|secret)/i;
/** Environment variables the AI CLIs read a credential from. */
const AI_CREDENTIAL_ENV = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_API_KEY",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "OPENAI_API_KEY",
  "GEMINI_API_KEY",
];

type Config = Record<string, Record<string, Record<string, any>> | undefined>;

describe.each(TEMPLATES.map((t) => [t.id]))("%s", (id) => {
  const config = synthTemplate<Config>(id).config;

  it("declares no Coder Task", () => {
    expect(Object.keys(config.resource?.coder_ai_task ?? {})).toEqual([]);
    expect(Object.keys(config.data?.coder_task ?? {})).toEqual([]);
  });

  it("has no template variable for an AI key", () => {
    expect(Object.keys(config.variable ?? {}).filter((v) => AI_CREDENTIAL_NAME.test(v))).toEqual(
      [],
    );
  });

  it("gives no module an AI key", () => {
    const inputs = Object.entries(config.module ?? {}).flatMap(([name, block]) =>
      Object.keys(block)
        .filter((input) => AI_CREDENTIAL_NAME.test(input) || /api_key|oauth_token/.test(input))
        .map((input) => `module.${name}.${input}`),
    );
    expect(inputs).toEqual([]);
  });

  it("sets no AI credential in the agent's environment", () => {
    const envs = Object.values(config.resource?.coder_env ?? {}).map((e) => e.name);
    const agentEnv = Object.values(config.resource?.coder_agent ?? {}).flatMap((a) =>
      Object.keys(a.env ?? {}),
    );
    expect([...envs, ...agentEnv].filter((n) => AI_CREDENTIAL_ENV.includes(n))).toEqual([]);
  });
});
