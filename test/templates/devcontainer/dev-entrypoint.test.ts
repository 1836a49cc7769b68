/**
 * dev-entrypoint.sh, run for real: the environment the agent (here a fake init script that
 * dumps its environment) inherits from the `dev` container's wrapper.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../../lib/core/project-root";
import { hostTool, linkHostTools, runScript, tempDirs } from "../../support/run-script";
import { createImageSandbox, describeEachShell, type ImageToolset } from "./scripts/helpers";

const SCRIPT = join(projectRoot(), "templates/devcontainer/scripts/dev-entrypoint.sh");
const dirs = tempDirs();
afterAll(() => dirs.cleanup());

const b64 = (text: string) => Buffer.from(text).toString("base64");

/** Runs the wrapper with the host's tools, or with those of an image of `toolset`. */
async function run(env: Record<string, string>, toolset?: ImageToolset) {
  const dir = dirs.make("dev-entrypoint");
  const image = toolset && createImageSandbox(dirs, { toolset, withGit: false });
  const bin =
    image?.toolBin ??
    linkHostTools(join(dir, "bin"), [
      "sh",
      "env",
      "sed",
      "base64",
      "basename",
      "grep",
      "tr",
      "cat",
      "mkdir",
      "rm",
      "sleep",
    ]);
  const dump = join(dir, "agent-env");
  const result = await runScript({
    script: SCRIPT,
    shell: image?.shell,
    env: {
      PATH: `/image/bin:${bin}`,
      CODER_AGENT_TOKEN: "agent-token",
      DC_INIT_SCRIPT: `env > '${dump}'; echo "agent started as $USER"`,
      DC_REMOTE_USER: "vscode",
      DC_HOME: "/home/vscode",
      DC_WORKSPACE_FOLDER: "/workspaces/app",
      DC_ID: "ws-1",
      TMPDIR: dir,
      // The probe has tests of its own below (each gives a passwd file); elsewhere it would
      // read the host's /etc/profile.
      ...(env.DC_PASSWD_FILE === undefined ? { DC_USER_ENV_PROBE: "none" } : {}),
      ...env,
    },
  });
  let agentEnv: Record<string, string> = {};
  try {
    agentEnv = Object.fromEntries(
      readFileSync(dump, "utf8")
        .split("\n")
        .filter((l) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(l))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
  } catch {
    // the agent never started
  }
  return { result, agentEnv, dir, bin };
}

it("exports the folder, id, identity and localEnv values, then execs the agent without DC_* inputs", async () => {
  const { result, agentEnv } = await run({
    DC_VARIABLES: [
      "# a comment",
      "",
      "NPM_TOKEN=abc=def $HOME",
      "bad-name=1",
      "no equals sign",
      "=empty",
      "WIN=crlf\r",
      // Typed as NAME: value or NAME value: the text before the first "=" is part of the value.
      "DATABASE_URL: postgres://app:hunter2@db/app?sslmode=require",
      "AUTH_TOKEN dGhpcyBpcyBhIHNlY3JldA==",
    ].join("\n"),
  });
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toBe("agent started as vscode\n");
  expect(agentEnv).toMatchObject({
    DEVCONTAINER_WORKSPACE_FOLDER: "/workspaces/app",
    DEVCONTAINER_WORKSPACE_FOLDER_BASENAME: "app",
    DEVCONTAINER_ID: "ws-1",
    DEVCONTAINER_LOCALENV_NPM_TOKEN: "abc=def $HOME",
    DEVCONTAINER_LOCALENV_WIN: "crlf",
    HOME: "/home/vscode",
    USER: "vscode",
    LOGNAME: "vscode",
    CODER_AGENT_TOKEN: "agent-token",
  });
  expect(Object.keys(agentEnv).filter((k) => k.startsWith("DC_"))).toEqual([]);
  expect(
    Object.keys(agentEnv)
      .filter((k) => k.startsWith("DEVCONTAINER_LOCALENV_"))
      .sort(),
  ).toEqual([
    "DEVCONTAINER_LOCALENV_NPM_TOKEN",
    // The container's own: every machine has them.
    "DEVCONTAINER_LOCALENV_PATH",
    "DEVCONTAINER_LOCALENV_SHELL",
    "DEVCONTAINER_LOCALENV_WIN",
  ]);
  for (const line of [4, 6, 8, 9])
    expect(result.stderr).toContain(
      `line ${line} does not start with a variable name (letters, digits, _) and '='; skipped`,
    );
  expect(result.stderr).toContain("line 5 has no '='; skipped");
  // Values never reach the log, nor does any part of a skipped line.
  for (const part of ["abc=def", "bad-name", "hunter2", "dGhpcyBp", "DATABASE_URL"])
    expect(result.stderr).not.toContain(part);
});

describeEachShell("${localEnv:…} names every machine has (%s)", (toolset) => {
  it("get the workspace user's own values when the variables leave them unset; a value the user set wins, an empty one too", async () => {
    const { result, agentEnv } = await run(
      {
        DC_VARIABLES: "USER=someone-else\nLOGNAME=",
        DC_LOCALENV_DEFAULTS: "HOME=/home/vscode\nUSER=vscode\nLOGNAME=vscode",
        // The service renders `mkdir -p ${localEnv:HOME}/.m2` so, in containerEnv too.
        DC_CONTAINER_ENV: b64('export M2="${DEVCONTAINER_LOCALENV_HOME}/.m2"\n'),
      },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(agentEnv).toMatchObject({
      DEVCONTAINER_LOCALENV_HOME: "/home/vscode",
      DEVCONTAINER_LOCALENV_USER: "someone-else",
      DEVCONTAINER_LOCALENV_LOGNAME: "",
      M2: "/home/vscode/.m2",
    });
    // The container's: bash sets SHELL from the passwd entry, else the wrapper falls back.
    expect(agentEnv.DEVCONTAINER_LOCALENV_SHELL).toMatch(/^\/(usr\/)?bin\/(ba)?sh$/);
    expect(agentEnv.DEVCONTAINER_LOCALENV_PATH).toMatch(/^\/image\/bin:/);
  });
});

it("sources containerEnv then remoteEnv, unset variables expanding to empty", async () => {
  const { result, agentEnv } = await run({
    DC_CONTAINER_ENV: b64('export A="from-container"\nexport P="${PATH}:/extra"\n'),
    DC_REMOTE_ENV: b64('export A="${A}-then-remote"\nexport U="x${UNSET_VARIABLE}y"\n'),
  });
  expect(result.exitCode).toBe(0);
  expect(agentEnv.A).toBe("from-container-then-remote");
  expect(agentEnv.P).toMatch(/^\/image\/bin:.*:\/extra$/);
  expect(agentEnv.U).toBe("xy");
});

// Each of these ended the wrapper (and so the container, on every start) or replaced what it
// starts, in some shell.
describeEachShell("an env script that changes the wrapper's own ground (%s)", (toolset) => {
  it("keeps the agent, the home and the DC_* clean-up when a script sets IFS or DC_* inputs", async () => {
    const { result, agentEnv } = await run(
      {
        DC_CONTAINER_ENV: b64(
          'export IFS=","\nexport DC_INIT_SCRIPT="echo not the agent"\nexport DC_HOME="/elsewhere"\n',
        ),
      },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("agent started as vscode\n");
    expect(agentEnv.HOME).toBe("/home/vscode");
    expect(Object.keys(agentEnv).filter((k) => k.startsWith("DC_"))).toEqual([]);
  });

  it("keeps the agent, the home, the user and remoteEnv when containerEnv's keys are the names the wrapper uses inside", async () => {
    const { result, agentEnv } = await run(
      {
        DC_CONTAINER_ENV: b64(
          [
            'export init_script="echo not the agent"',
            'export home_dir="/tmp/not-persisted"',
            'export remote_user="root"',
            'export image_path=""',
            'export name_line="."',
            'export saved_ifs=","',
            'export unset_ifs="1"',
            'export kind="x"',
            'export encoded="x"',
            'export script="x"',
            `export DC_REMOTE_ENV="${b64('export R="from-containerEnv"\n')}"`,
            "",
          ].join("\n"),
        ),
        // A key the shell reads as another: refused whatever containerEnv set.
        DC_REMOTE_ENV: b64('export R="from-remote"\nexport X PATH="/nowhere"\n'),
      },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("agent started as vscode\n");
    expect(result.stderr).toContain(
      "remoteEnv was not applied: its keys are not all variable names (X PATH)",
    );
    expect(agentEnv.HOME).toBe("/home/vscode");
    expect([agentEnv.USER, agentEnv.LOGNAME]).toEqual(["vscode", "vscode"]);
    expect(agentEnv.R).toBeUndefined();
    // The keys themselves are the repository's variables, and the agent has them.
    expect(agentEnv.home_dir).toBe("/tmp/not-persisted");
  });

  it("repairs a PATH from containerEnv before remoteEnv needs base64, and needs no writable /tmp", async () => {
    const { result, agentEnv, dir } = await run(
      {
        DC_CONTAINER_ENV: b64('export PATH="/opt/tool/bin"\n'),
        DC_REMOTE_ENV: b64('export R="from-remote"\n'),
        TMPDIR: "/nonexistent",
      },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(agentEnv.R).toBe("from-remote");
    expect(agentEnv.PATH).toMatch(/^\/opt\/tool\/bin:\/image\/bin:/);
    expect(readdirSync(dir).filter((f) => f.includes("env"))).toEqual(["agent-env"]);
  });

  it("applies a script whose export makes the shell warn but not fail (bash's setlocale)", async () => {
    const { result, agentEnv } = await run(
      { DC_CONTAINER_ENV: b64('export LC_ALL="xx_XX.UTF-8"\nexport NODE_ENV="development"\n') },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(agentEnv.NODE_ENV).toBe("development");
    expect(agentEnv.LC_ALL).toBe("xx_XX.UTF-8");
  });
});

// A key that is no shell variable name makes `export` end a POSIX shell (dash, BusyBox) and
// fail under bash's `set -e`: the container would never start.
describeEachShell("a containerEnv script the shell refuses (%s)", (toolset) => {
  it("is skipped whole, naming the bad keys and no value; remoteEnv and the agent still start", async () => {
    const { result, agentEnv } = await run(
      {
        DC_CONTAINER_ENV: b64(
          [
            'export GOOD="kept-out"',
            'export A-B="secret-value"',
            'export 9LIVES="x"',
            // Accepted by the shell, but as other variables than the file names: PATH, and A.
            'export X PATH="/opt/evil"',
            'export A=B="z"',
            'export AFTER="y"',
            "",
          ].join("\n"),
        ),
        DC_REMOTE_ENV: b64('export R="from-remote"\n'),
      },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("agent started as vscode\n");
    expect(agentEnv.R).toBe("from-remote");
    // Nothing of a script that failed half-way: no entry before the bad one, none after.
    expect(agentEnv.GOOD).toBeUndefined();
    expect(agentEnv.AFTER).toBeUndefined();
    expect(agentEnv.PATH).not.toContain("/opt/evil");
    expect(agentEnv.A).toBeUndefined();
    expect(result.stderr).toContain(
      "containerEnv was not applied: its keys are not all variable names (A-B 9LIVES X PATH A=B)",
    );
    expect(result.stderr).not.toContain("secret-value");
  });
});

// A PATH without the shell or rm would end the wrapper at its next command (`set -e`), and
// the agent's start with it: the container would fail on every start.
describeEachShell("a containerEnv PATH without the image's tools (%s)", (toolset) => {
  it("gets the image's PATH appended, the script's entries first, and the agent starts", async () => {
    const { result, agentEnv } = await run(
      { DC_CONTAINER_ENV: b64('export PATH="/opt/tool/bin"\nexport AFTER="y"\n') },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("agent started as vscode\n");
    expect(agentEnv.AFTER).toBe("y");
    expect(agentEnv.PATH).toMatch(/^\/opt\/tool\/bin:\/image\/bin:/);
    expect(result.stderr).toContain(
      "the PATH containerEnv set has no sh; the image's PATH was appended to it",
    );
  });

  it("leaves a PATH that keeps the tools as the script set it, without a message", async () => {
    const { result, agentEnv } = await run(
      { DC_REMOTE_ENV: b64('export PATH="/opt/tool/bin:${PATH}"\n') },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(agentEnv.PATH).toMatch(/^\/opt\/tool\/bin:\/image\/bin:[^:]+$/);
    expect(result.stderr).not.toContain("PATH");
  });
});

it("fails before starting the agent when a required input is missing", async () => {
  const dir = dirs.make("dev-entrypoint-missing");
  const bin = linkHostTools(join(dir, "bin"), ["sh", "basename"]);
  const missing = await runScript({ script: SCRIPT, env: { PATH: bin } });
  expect(missing.exitCode).not.toBe(0);
  expect(missing.stderr).toMatch(/DC_WORKSPACE_FOLDER/);
});

/**
 * userEnvProbe: a home whose startup files are laid out as Debian's and nvm's installers leave
 * them: ~/.profile sources ~/.bashrc, which returns early unless the shell is interactive, and
 * nvm's lines come after that guard (so only an interactive shell finds node).
 */
function homeWithNvm(): { home: string; passwd: string } {
  const home = dirs.make("probe-home");
  writeFileSync(
    join(home, ".profile"),
    'export FROM_PROFILE=1\nif [ -n "$BASH_VERSION" ] && [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi\n',
  );
  writeFileSync(
    join(home, ".bashrc"),
    [
      "case $- in *i*) ;; *) return ;; esac",
      'echo "welcome to the workspace"',
      'export NVM_DIR="$HOME/.nvm"',
      'export PATH="$NVM_DIR/versions/node/v20.11.0/bin:$PATH"',
      "export MULTI_LINE='one",
      "two'",
      "export CODER_AGENT_TOKEN=overwritten",
      "",
    ].join("\n"),
  );
  const passwd = join(home, "passwd");
  writeFileSync(passwd, `vscode:x:1000:1000::${home}:${hostTool("bash")}\n`);
  return { home, passwd };
}

describeEachShell("userEnvProbe (%s)", (toolset) => {
  const probe = (mode: string | undefined, extra: Record<string, string> = {}) => {
    const { home, passwd } = homeWithNvm();
    const modeEnv: Record<string, string> = mode === undefined ? {} : { DC_USER_ENV_PROBE: mode };
    return run({ DC_HOME: home, DC_PASSWD_FILE: passwd, ...modeEnv, ...extra }, toolset).then(
      (r) => ({
        ...r,
        home,
      }),
    );
  };

  it("loginInteractiveShell (the default, also for an unknown word): the agent gets nvm's PATH and the image's PATH entries, never the shell's bookkeeping or a value with a newline", async () => {
    for (const mode of ["loginInteractiveShell", "", "zsh"]) {
      const { result, agentEnv, home, bin } = await probe(mode);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe("agent started as vscode\n");
      expect(agentEnv.NVM_DIR).toBe(`${home}/.nvm`);
      expect(agentEnv.FROM_PROFILE).toBe("1");
      const path = agentEnv.PATH.split(":");
      // /etc/profile set PATH afresh: the image's own entries it dropped are back, in their
      // order, where they stood (here first, as the Dev Containers CLI puts them); nvm's next.
      expect(path.slice(0, 3)).toEqual([
        "/image/bin",
        bin,
        `${home}/.nvm/versions/node/v20.11.0/bin`,
      ]);
      expect(agentEnv.CODER_AGENT_TOKEN).toBe("agent-token");
      expect(agentEnv.MULTI_LINE).toBeUndefined();
      expect(agentEnv.HOME).toBe(home);
      expect(result.stderr).toContain(
        "userEnvProbe: not taken (a value with a newline): MULTI_LINE",
      );
      expect(result.stderr).toMatch(/userEnvProbe: the environment of \S*bash -lic set .*NVM_DIR/);
      // What the startup files print is not the environment, nor does it reach the log.
      expect(result.stderr).not.toContain("welcome");
      expect(Object.keys(agentEnv).filter((k) => k.startsWith("DC_"))).toEqual([]);
    }
  });

  it("the pod's default (no input) probes too", async () => {
    const { agentEnv, home } = await probe(undefined);
    expect(agentEnv.NVM_DIR).toBe(`${home}/.nvm`);
  });

  it("loginShell reads ~/.profile but not the interactive part of ~/.bashrc; interactiveShell the opposite; none neither", async () => {
    const login = await probe("loginShell");
    expect(login.agentEnv.FROM_PROFILE).toBe("1");
    expect(login.agentEnv.NVM_DIR).toBeUndefined();
    const interactive = await probe("interactiveShell");
    expect(interactive.agentEnv.FROM_PROFILE).toBeUndefined();
    expect(interactive.agentEnv.NVM_DIR).toBe(`${interactive.home}/.nvm`);
    const none = await probe("none");
    expect(none.agentEnv.FROM_PROFILE).toBeUndefined();
    expect(none.agentEnv.NVM_DIR).toBeUndefined();
    expect(none.result.stderr).not.toContain("userEnvProbe");
  });

  it("runs between containerEnv and remoteEnv: the shell sees containerEnv, remoteEnv extends the probed PATH", async () => {
    const { agentEnv, home } = await probe("loginInteractiveShell", {
      DC_CONTAINER_ENV: b64('export NVM_DIR="/opt/nvm-from-container-env"\n'),
      DC_REMOTE_ENV: b64('export PATH="${PATH}:/remote"\nexport SEEN_NVM="${NVM_DIR}"\n'),
    });
    // ~/.bashrc set NVM_DIR itself, after containerEnv.
    expect(agentEnv.SEEN_NVM).toBe(`${home}/.nvm`);
    expect(agentEnv.PATH).toContain(`:${home}/.nvm/versions/node/v20.11.0/bin:`);
    expect(agentEnv.PATH.endsWith(":/remote")).toBe(true);
  });

  it("is bounded in time: a startup file that hangs is killed and the agent starts without it", async () => {
    const { home, passwd } = homeWithNvm();
    writeFileSync(join(home, ".bashrc"), "export NVM_DIR=late\nsleep 30\n");
    const started = Date.now();
    const { result, agentEnv } = await run(
      {
        DC_HOME: home,
        DC_PASSWD_FILE: passwd,
        DC_USER_ENV_PROBE: "loginInteractiveShell",
        DC_USER_ENV_PROBE_TIMEOUT_SECONDS: "1",
      },
      toolset,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("agent started as vscode\n");
    expect(agentEnv.NVM_DIR).toBeUndefined();
    expect(result.stderr).toContain("did not finish within 1 seconds");
  });
});

describeEachShell("Feature entrypoints (%s)", (toolset) => {
  it("starts each installed Feature's entrypoint in the background before the agent, as the remote user, with its log in the home; says which could not run and why", async () => {
    const home = dirs.make("entrypoint-home");
    const tools = dirs.make("entrypoint-tools");
    const marker = join(home, "sshd-started");
    const sshInit = join(tools, "ssh-init.sh");
    writeFileSync(
      sshInit,
      `#!/bin/sh\necho "starting sshd as $USER"\nprintf '%s' "$HOME" > '${marker}'\nexit 3\n`,
      { mode: 0o755 },
    );
    const notExecutable = join(tools, "desktop-init.sh");
    writeFileSync(notExecutable, "#!/bin/sh\n", { mode: 0o644 });
    const log = join(home, ".cache", "devcontainer-features", "1-ssh-init.log");
    const { result } = await run(
      {
        DC_HOME: home,
        // The agent waits for the entrypoint to end: the harness ends the process group with it.
        DC_INIT_SCRIPT: `i=0; until grep -q 'exit status' '${log}' 2>/dev/null || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done; echo "agent started as $USER"`,
        DC_FEATURE_ENTRYPOINTS: [
          `ghcr.io/devcontainers/features/sshd:1\t${sshInit}`,
          `ghcr.io/devcontainers/features/desktop-lite:1\t${notExecutable}`,
          "ghcr.io/devcontainers/features/docker-in-docker:2\t/usr/local/share/docker-init.sh",
        ].join("\n"),
      },
      toolset,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("agent started as vscode\n");
    expect(result.stderr).toContain(
      `Feature ghcr.io/devcontainers/features/sshd:1: started its entrypoint ${sshInit} in the background (log: ${log})`,
    );
    expect(result.stderr).toContain(
      `Feature ghcr.io/devcontainers/features/desktop-lite:1: entrypoint ${notExecutable} not started: it is not executable`,
    );
    expect(result.stderr).toContain(
      "Feature ghcr.io/devcontainers/features/docker-in-docker:2: entrypoint /usr/local/share/docker-init.sh not started: the image has no such file",
    );
    expect(readFileSync(marker, "utf8")).toBe(home);
    expect(readFileSync(log, "utf8")).toBe(
      "starting sshd as vscode\ndevcontainer: the entrypoint ended with exit status 3\n",
    );
  });
});
