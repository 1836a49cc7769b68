import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { DevcontainerWorkspaceFolder } from "../../lib/devcontainer/workspace-folder";
import { type ExpressionPlan, planExpressions } from "@coder-cdktf/terraform-harness";

interface FolderCase {
  readonly repository: unknown;
  readonly workspaceFolder?: unknown;
  readonly homeDir?: string;
}

const WORKSPACE_ID = "8f14e45f-ceea-467f-a0e6-0a1b2c3d4e5f";

/** A case of the repository https://h/a/widgets (so the default folder is /workspaces/widgets). */
function widgets(workspaceFolder: string, homeDir?: string) {
  return { repository: "https://h/a/widgets", workspaceFolder, ...(homeDir && { homeDir }) };
}

const CASES = {
  // Stopped / no workspaceFolder: the default with the repo name.
  defaultHttps: { repository: "https://github.com/acme/widgets.git" },
  trailingSlash: { repository: "https://github.com/acme/widgets/" },
  scpStyle: { repository: "git@github.com:widgets.git" },
  sshUrl: { repository: "ssh://git@host:22/acme/widgets.git", workspaceFolder: "" },
  nullRepository: { repository: null },
  // Placeholders replaced, trailing slash removed.
  placeholders: {
    repository: "https://example.com/acme/widgets",
    workspaceFolder:
      "/src/${localWorkspaceFolderBasename}-${devcontainerId}/${containerWorkspaceFolderBasename}/",
  },
  exactlyWorkspaces: widgets("/workspaces"),
  underWorkspaces: widgets("/workspaces/other/dir"),
  isHome: widgets("/home/dev/", "/home/dev"),
  // Bad values: the default folder and a warning naming the value.
  relative: widgets("src/widgets"),
  root: widgets("/"),
  unknownVariable: widgets("/src/${localEnv:HOME}"),
  dotDot: widgets("/src/../etc"),
  devShm: widgets("/dev/shm"),
  // Hostile values (docs/security.md, "Values from the repository").
  urlAttack: widgets("/workspaces/app&url=https://attacker.example"),
  shellCharacters: widgets('/src/a";$(id);"'),
  plusSign: widgets("/workspaces/c++"),
  // The text \u0026 itself, once after a backslash: the warning must quote it, not "&".
  escapeText: widgets("/w/\\u0026url=x\\\\u0026&"),
  // Repeated slashes collapse before every comparison and in the folder itself.
  doubleSlashWorkspaces: widgets("//workspaces"),
  doubleSlashHome: widgets("/home//dev//", "/home/dev"),
  doubleSlashElsewhere: widgets("//src///app"),
  // Below a system directory other than /proc, /sys and /dev: allowed.
  usrSrc: widgets("/usr/src/app"),
  varLib: widgets("/var/lib/x"),
  // System directories (or under /proc, /sys, /dev): the default, with a warning.
  proc: widgets("/proc"),
  sysFs: widgets("/sys/fs"),
  dev: widgets("/dev"),
  devPts: widgets("/dev/pts"),
  usr: widgets("/usr"),
  etc: widgets("/etc/"),
  bin: widgets("/bin"),
  lib: widgets("/lib"),
  usrLib: widgets("/usr/lib"),
  varRun: widgets("/var/run"),
  doubleSlashProc: widgets("//proc//1"),
  // A segment of 255 bytes can be created, one of 256 cannot.
  segment255: widgets(`/src/${"a".repeat(255)}`),
  segment256: widgets(`/workspaces/${"a".repeat(256)}/src`),
  repoNameWithUrlCharacters: {
    repository: "https://git.example.com/acme/app&url=x",
    workspaceFolder: "/workspaces/${localWorkspaceFolderBasename}",
  },
} satisfies Record<string, FolderCase>;

type CaseName = keyof typeof CASES;

interface FolderResult {
  repo_name: string;
  workspace_folder: string;
  mounted: boolean;
  warnings: string[];
}

let plan: ExpressionPlan;

beforeAll(async () => {
  const variables: Record<string, unknown> = { workspace_id: WORKSPACE_ID };
  plan = await planExpressions((stack) => {
    const workspaceId = new TerraformVariable(stack, "workspace_id", { type: "string" });
    for (const [name, c] of Object.entries(CASES) as [CaseName, FolderCase][]) {
      const input = (field: string, value: unknown) => {
        variables[`${name}_${field}`] = value ?? null;
        return new TerraformVariable(stack, `${name}_${field}`, { type: "any", nullable: true })
          .value as unknown as string;
      };
      const folder = new DevcontainerWorkspaceFolder(stack, name, {
        repository: input("repository", c.repository),
        workspaceFolder: input("workspace_folder", c.workspaceFolder),
        workspaceId: workspaceId.stringValue,
        homeDir: c.homeDir ?? "/home/vscode",
        localPrefix: `${name}_`,
      });
      new TerraformOutput(stack, `${name}_out`, {
        value: {
          repo_name: folder.repoName,
          workspace_folder: folder.path,
          mounted: folder.mounted,
          warnings: folder.warnings,
        },
      });
    }
  }, variables);
}, 60_000);

const result = (name: CaseName) => plan.values[`${name}_out`] as FolderResult;

describe("DevcontainerWorkspaceFolder", () => {
  it("derives repo_name from https, scp-style and ssh URLs", () => {
    expect(result("defaultHttps").repo_name).toBe("widgets");
    expect(result("trailingSlash").repo_name).toBe("widgets");
    expect(result("scpStyle").repo_name).toBe("widgets");
    expect(result("sshUrl").repo_name).toBe("widgets");
    expect(result("nullRepository").repo_name).toBe("workspace");
  });

  it("defaults to /workspaces/<repo>, which needs no mount of its own", () => {
    expect(result("defaultHttps")).toEqual({
      repo_name: "widgets",
      workspace_folder: "/workspaces/widgets",
      mounted: false,
      warnings: [],
    });
    expect(result("sshUrl").workspace_folder).toBe("/workspaces/widgets");
    expect(result("nullRepository").workspace_folder).toBe("/workspaces/workspace");
  });

  it("substitutes the basename and devcontainerId placeholders and mounts a folder elsewhere", () => {
    expect(result("placeholders")).toEqual({
      repo_name: "widgets",
      workspace_folder: `/src/widgets-${WORKSPACE_ID}/widgets`,
      mounted: true,
      warnings: [],
    });
  });

  it("does not mount /workspaces, folders under it, or the home", () => {
    expect(result("exactlyWorkspaces")).toMatchObject({
      workspace_folder: "/workspaces",
      mounted: false,
    });
    expect(result("underWorkspaces")).toMatchObject({
      workspace_folder: "/workspaces/other/dir",
      mounted: false,
    });
    expect(result("isHome")).toMatchObject({
      workspace_folder: "/home/dev",
      mounted: false,
      warnings: [],
    });
  });

  it.each([
    "relative",
    "root",
    "unknownVariable",
    "dotDot",
    "devShm",
    "urlAttack",
    "shellCharacters",
    "plusSign",
    "escapeText",
  ] as const)(
    "replaces the unusable folder of case %s by the default, with a warning naming it",
    (name) => {
      const r = result(name);
      expect(r).toMatchObject({ workspace_folder: "/workspaces/widgets", mounted: false });
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toContain(
        `workspaceFolder ${JSON.stringify(CASES[name].workspaceFolder)}`,
      );
      expect(r.warnings[0]).toContain("/workspaces/widgets");
    },
  );

  it("collapses repeated slashes before comparing with /workspaces and the home", () => {
    expect(result("doubleSlashWorkspaces")).toMatchObject({
      workspace_folder: "/workspaces",
      mounted: false,
      warnings: [],
    });
    expect(result("doubleSlashHome")).toMatchObject({
      workspace_folder: "/home/dev",
      mounted: false,
      warnings: [],
    });
    expect(result("doubleSlashElsewhere")).toMatchObject({
      workspace_folder: "/src/app",
      mounted: true,
      warnings: [],
    });
  });

  it("keeps a folder below a system directory other than /proc, /sys and /dev", () => {
    expect(result("usrSrc")).toMatchObject({
      workspace_folder: "/usr/src/app",
      mounted: true,
      warnings: [],
    });
    expect(result("varLib")).toMatchObject({
      workspace_folder: "/var/lib/x",
      mounted: true,
      warnings: [],
    });
  });

  it.each([
    ["proc", "/proc"],
    ["sysFs", "/sys/fs"],
    ["dev", "/dev"],
    ["devPts", "/dev/pts"],
    ["usr", "/usr"],
    ["etc", "/etc"],
    ["bin", "/bin"],
    ["lib", "/lib"],
    ["usrLib", "/usr/lib"],
    ["varRun", "/var/run"],
    ["doubleSlashProc", "//proc//1"],
  ] as const)(
    "replaces the system directory of case %s by the default, with a warning quoting %s",
    (name, quoted) => {
      expect(result(name)).toMatchObject({
        workspace_folder: "/workspaces/widgets",
        mounted: false,
        warnings: [
          `workspaceFolder ${JSON.stringify(quoted)} is a system directory or lies under /proc, /sys or /dev, where the workspace cannot be mounted; the workspace uses /workspaces/widgets.`,
        ],
      });
    },
  );

  it("refuses a folder with a path segment longer than 255 bytes", () => {
    expect(result("segment255")).toMatchObject({
      workspace_folder: CASES.segment255.workspaceFolder,
      mounted: true,
      warnings: [],
    });
    expect(result("segment256")).toMatchObject({
      workspace_folder: "/workspaces/widgets",
      warnings: [
        `workspaceFolder ${JSON.stringify(CASES.segment256.workspaceFolder)} has a path segment longer than 255 bytes, which cannot be created; the workspace uses /workspaces/widgets.`,
      ],
    });
  });

  it("replaces a repository name with URL characters by the fallback name, with a warning", () => {
    expect(result("repoNameWithUrlCharacters")).toEqual({
      repo_name: "workspace",
      workspace_folder: "/workspaces/workspace",
      mounted: false,
      warnings: [
        `The repository's name "app&url=x" cannot be a folder name (letters, digits and . _ @ , ~ -); the folder name placeholders and the default folder use workspace.`,
      ],
    });
  });
});
