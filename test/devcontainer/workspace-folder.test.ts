import { TerraformOutput, TerraformVariable } from "../../src/core/cdk";
import { WorkspaceFolder } from "../../src/devcontainer/workspace-folder";
import { type ExpressionPlan, planExpressions } from "@coder-cdktf/terraform-harness";

interface FolderCase {
  readonly repository: unknown;
  readonly workspaceFolder?: unknown;
  readonly homeDir?: string;
}

const WORKSPACE_ID = "8f14e45f-ceea-467f-a0e6-0a1b2c3d4e5f";

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
  exactlyWorkspaces: { repository: "https://h/a/widgets", workspaceFolder: "/workspaces" },
  underWorkspaces: { repository: "https://h/a/widgets", workspaceFolder: "/workspaces/other/dir" },
  isHome: {
    repository: "https://h/a/widgets",
    workspaceFolder: "/home/dev/",
    homeDir: "/home/dev",
  },
  // Bad values: the default folder and a warning naming the value.
  relative: { repository: "https://h/a/widgets", workspaceFolder: "src/widgets" },
  root: { repository: "https://h/a/widgets", workspaceFolder: "/" },
  unknownVariable: { repository: "https://h/a/widgets", workspaceFolder: "/src/${localEnv:HOME}" },
  dotDot: { repository: "https://h/a/widgets", workspaceFolder: "/src/../etc" },
  devShm: { repository: "https://h/a/widgets", workspaceFolder: "/dev/shm" },
  // Hostile values (docs/security.md, "Values from the repository").
  urlAttack: {
    repository: "https://h/a/widgets",
    workspaceFolder: "/workspaces/app&url=https://attacker.example",
  },
  shellCharacters: { repository: "https://h/a/widgets", workspaceFolder: '/src/a";$(id);"' },
  plusSign: { repository: "https://h/a/widgets", workspaceFolder: "/workspaces/c++" },
  repoNameWithUrlCharacters: {
    repository: "https://git.example.com/acme/app&url=x",
    workspaceFolder: "/workspaces/${localWorkspaceFolderBasename}",
  },
} satisfies Record<string, FolderCase>;

type CaseName = keyof typeof CASES;

interface FolderResult {
  repo_name: string;
  workspace_folder: string;
  basename: string;
  mounted: boolean;
  mount_path: string;
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
      const folder = new WorkspaceFolder(stack, name, {
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
          basename: folder.basename,
          mounted: folder.mounted,
          mount_path: folder.mountPath,
          warnings: folder.warnings,
        },
      });
    }
  }, variables);
}, 60_000);

const result = (name: CaseName) => plan.values[`${name}_out`] as FolderResult;

describe("WorkspaceFolder", () => {
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
      basename: "widgets",
      mounted: false,
      mount_path: "/mnt/.devcontainer-unused-workspace-folder",
      warnings: [],
    });
    expect(result("sshUrl").workspace_folder).toBe("/workspaces/widgets");
    expect(result("nullRepository").workspace_folder).toBe("/workspaces/workspace");
  });

  it("substitutes the basename and devcontainerId placeholders and mounts a folder elsewhere", () => {
    expect(result("placeholders")).toEqual({
      repo_name: "widgets",
      workspace_folder: `/src/widgets-${WORKSPACE_ID}/widgets`,
      basename: "widgets",
      mounted: true,
      mount_path: `/src/widgets-${WORKSPACE_ID}/widgets`,
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
      basename: "dir",
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

  it("replaces a repository name with URL characters by the fallback name, with a warning", () => {
    expect(result("repoNameWithUrlCharacters")).toEqual({
      repo_name: "workspace",
      workspace_folder: "/workspaces/workspace",
      basename: "workspace",
      mounted: false,
      mount_path: "/mnt/.devcontainer-unused-workspace-folder",
      warnings: [
        `The repository's name "app&url=x" cannot be a folder name (letters, digits and . _ @ , ~ -); the folder name placeholders and the default folder use workspace.`,
      ],
    });
  });
});
