import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { Expr } from "../../lib/core/expr";
import { DevcontainerWorkspaceUser } from "../../lib/devcontainer/workspace-user";
import { type ExpressionPlan, planExpressions } from "@coder-cdktf/terraform-harness";

/** One case: the data source's values for the user (null = attribute absent or null). */
interface UserCase {
  readonly remoteUser?: unknown;
  readonly containerUser?: unknown;
  readonly runtime?: unknown;
  readonly metadataRead: boolean;
}

/** A started image whose user vscode (uid and gid 1001) has the recorded home `home`. */
function vscodeWithHome(home: string): UserCase {
  return {
    remoteUser: "vscode",
    runtime: { remote_user_uid: 1001, remote_user_gid: 1001, remote_user_home: home },
    metadataRead: true,
  };
}

const CASES = {
  // Started, 0.3.0+ image: everything recorded.
  recorded: {
    remoteUser: "vscode",
    runtime: { remote_user_uid: 1001, remote_user_gid: 1002, remote_user_home: "/home/vscode/" },
    metadataRead: true,
  },
  // Stopped: no metadata at all; fallbacks without warnings.
  stopped: { metadataRead: false },
  // Started with an image built before 0.3.0: runtime has no uid/gid/home.
  legacyImage: {
    remoteUser: null,
    containerUser: "node",
    runtime: { remote_user_uid: null, remote_user_gid: null, remote_user_home: null },
    metadataRead: true,
  },
  // Started, runtime object missing entirely, root user.
  noRuntime: { remoteUser: "", runtime: null, metadataRead: true },
  // Started with malformed values everywhere.
  malformed: {
    remoteUser: "bad/user",
    runtime: { remote_user_uid: -5, remote_user_gid: 1.5, remote_user_home: "relative/home" },
    metadataRead: true,
  },
  // uid 0 is a valid recorded uid (root images): kept, no warning.
  rootImage: {
    remoteUser: "root",
    runtime: { remote_user_uid: 0, remote_user_gid: 0, remote_user_home: "/root" },
    metadataRead: true,
  },
  // Repeated slashes collapse before the checks and in the home itself.
  doubleSlashHome: vscodeWithHome("//home//vscode/"),
  doubleSlashProc: vscodeWithHome("//proc/1"),
  doubleSlashWorkspaces: vscodeWithHome("//workspaces"),
  // A remote_user of spaces does not hide a usable container_user.
  blankRemoteUser: {
    remoteUser: "  ",
    containerUser: "node",
    runtime: { remote_user_uid: 1000, remote_user_gid: 1000, remote_user_home: null },
    metadataRead: true,
  },
  badContainerUser: {
    containerUser: "bad user",
    runtime: { remote_user_uid: 1000, remote_user_gid: 1000, remote_user_home: null },
    metadataRead: true,
  },
  longUser: {
    remoteUser: "u".repeat(33),
    runtime: { remote_user_uid: 1000, remote_user_gid: 1000, remote_user_home: null },
    metadataRead: true,
  },
  // A system user's home (bin's is /bin): a volume there hides the image's programs.
  systemDirectoryHome: vscodeWithHome("/usr"),
  devHome: vscodeWithHome("/dev/x"),
  belowSystemDirectory: vscodeWithHome("/var/lib/app"),
  // Where seed-home's init container has the whole volume mounted, and its parent.
  seedMountHome: vscodeWithHome("/mnt/data"),
  underSeedMountHome: vscodeWithHome("/mnt/data/vscode/"),
  mntHome: vscodeWithHome("/mnt"),
  rootDirectoryHome: vscodeWithHome("/"),
  slashesHome: vscodeWithHome("///"),
} satisfies Record<string, UserCase>;

type CaseName = keyof typeof CASES;

let plan: ExpressionPlan;

beforeAll(async () => {
  const variables: Record<string, unknown> = {};
  plan = await planExpressions((stack) => {
    for (const [name, c] of Object.entries(CASES) as [CaseName, UserCase][]) {
      const input = <T>(field: string, value: unknown): Expr<T> => {
        variables[`${name}_${field}`] = value ?? null;
        return Expr.of<T>(
          new TerraformVariable(stack, `${name}_${field}`, { type: "any", nullable: true }).value,
        );
      };
      const user = new DevcontainerWorkspaceUser(stack, name, {
        remoteUser: input("remote_user", c.remoteUser),
        containerUser: input("container_user", c.containerUser),
        runtime: input("runtime", c.runtime),
        metadataRead: input("metadata_read", c.metadataRead),
        localPrefix: `${name}_`,
      });
      new TerraformOutput(stack, `${name}_out`, {
        value: {
          remote_user: user.remoteUser,
          uid: user.uid,
          gid: user.gid,
          home_dir: user.homeDir,
          warnings: user.warnings,
        },
      });
    }
  }, variables);
}, 60_000);

function result(name: CaseName) {
  return plan.values[`${name}_out`] as {
    remote_user: string;
    uid: number;
    gid: number;
    home_dir: string;
    warnings: string[];
  };
}

describe("DevcontainerWorkspaceUser", () => {
  it("uses the recorded uid, gid and home (trailing / removed) without warnings", () => {
    expect(result("recorded")).toEqual({
      remote_user: "vscode",
      uid: 1001,
      gid: 1002,
      home_dir: "/home/vscode",
      warnings: [],
    });
  });

  it("falls back to root, 1000 and /root while stopped, silently", () => {
    expect(result("stopped")).toEqual({
      remote_user: "root",
      uid: 1000,
      gid: 1000,
      home_dir: "/root",
      warnings: [],
    });
  });

  it("runs an image without recorded ids as 1000 with one warning to rebuild", () => {
    const r = result("legacyImage");
    expect(r).toMatchObject({ remote_user: "node", uid: 1000, gid: 1000, home_dir: "/home/node" });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/no uid\/gid .*"node".* 1000.*Rebuild/);
  });

  it("warns about the missing ids when the runtime object itself is null", () => {
    const r = result("noRuntime");
    expect(r).toMatchObject({ remote_user: "root", uid: 1000, gid: 1000, home_dir: "/root" });
    expect(r.warnings).toEqual([expect.stringMatching(/no uid\/gid.*Rebuild/)]);
  });

  it("turns each malformed value into its fallback and a warning naming field and value", () => {
    const r = result("malformed");
    expect(r).toMatchObject({ remote_user: "root", uid: 1000, gid: 1000, home_dir: "/root" });
    expect(r.warnings).toEqual([
      expect.stringMatching(/^remote_user "bad\/user" /),
      expect.stringMatching(/^runtime\.remote_user_uid -5 .*1000/),
      expect.stringMatching(/^runtime\.remote_user_gid 1\.5 .*1000/),
      expect.stringMatching(/^runtime\.remote_user_home "relative\/home" .*\/root/),
    ]);
  });

  it("keeps uid 0 when the image records it", () => {
    expect(result("rootImage")).toEqual({
      remote_user: "root",
      uid: 0,
      gid: 0,
      home_dir: "/root",
      warnings: [],
    });
  });

  it("takes container_user when remote_user is only spaces, and names the field at fault", () => {
    expect(result("blankRemoteUser")).toMatchObject({
      remote_user: "node",
      home_dir: "/home/node",
      warnings: [],
    });
    expect(result("badContainerUser")).toMatchObject({
      remote_user: "root",
      warnings: [expect.stringMatching(/^container_user "bad user" is not a usable user name/)],
    });
    expect(result("longUser")).toMatchObject({
      remote_user: "root",
      warnings: [
        expect.stringMatching(/^remote_user "u{33}" is not a usable user name \(at most 32 /),
      ],
    });
  });

  it("refuses a home that is a system directory or under /dev, and keeps one below /var", () => {
    for (const [name, home] of [
      ["systemDirectoryHome", "/usr"],
      ["devHome", "/dev/x"],
    ] as const) {
      expect(result(name)).toMatchObject({
        home_dir: "/home/vscode",
        warnings: [expect.stringContaining(`runtime.remote_user_home "${home}" is not usable`)],
      });
    }
    expect(result("belowSystemDirectory")).toMatchObject({
      home_dir: "/var/lib/app",
      warnings: [],
    });
  });

  it("refuses a home where seed-home mounts the volume (it would copy the volume into itself), and / itself, naming the value", () => {
    for (const [name, home] of [
      ["seedMountHome", "/mnt/data"],
      ["underSeedMountHome", "/mnt/data/vscode"],
      ["mntHome", "/mnt"],
      ["rootDirectoryHome", "/"],
      ["slashesHome", "/"],
    ] as const) {
      expect([name, result(name)]).toMatchObject([
        name,
        {
          home_dir: "/home/vscode",
          warnings: [expect.stringContaining(`runtime.remote_user_home "${home}" is not usable`)],
        },
      ]);
    }
  });

  it("collapses repeated slashes in the home, so //proc and //workspaces cannot slip through", () => {
    expect(result("doubleSlashHome")).toMatchObject({ home_dir: "/home/vscode", warnings: [] });
    expect(result("doubleSlashProc")).toMatchObject({
      home_dir: "/home/vscode",
      warnings: [
        expect.stringMatching(/^runtime\.remote_user_home "\/\/proc\/1" .*\/home\/vscode\.$/),
      ],
    });
    expect(result("doubleSlashWorkspaces")).toMatchObject({
      home_dir: "/home/vscode",
      warnings: [
        expect.stringMatching(/^runtime\.remote_user_home "\/\/workspaces" .*\/home\/vscode\.$/),
      ],
    });
  });
});
