import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { shellQuote } from "../../lib/coder-cli";
import { formatProvisionerTags, provisionerTagArgs } from "../../lib/provisioner-tags";
import { planPush, TERRAFORM_LOCK_FILE } from "../../lib/template-push";

// The commands `npm run push` builds, without running anything.

const frontMatter = {
  displayName: "Packer builder",
  description: "Builds images",
  icon: "/icon/packer.svg",
};

describe("planPush", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "push-plan-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("sends static tags in key order, and no --ignore-lockfile when a lock file ships", () => {
    fs.writeFileSync(path.join(dir, TERRAFORM_LOCK_FILE), "# lock\n");
    const plan = planPush({
      name: "packer",
      dir,
      provisionerTags: { zone: "b", cluster: "harvester" },
      frontMatter,
    });
    expect(plan.push).toEqual([
      "templates",
      "push",
      "packer",
      "-d",
      dir,
      "--yes",
      "--provisioner-tag",
      "cluster=harvester",
      "--provisioner-tag",
      "zone=b",
    ]);
    expect(plan.notes).toEqual([]);
    expect(plan.edit).toEqual([
      "templates",
      "edit",
      "packer",
      "--display-name",
      "Packer builder",
      "--description",
      "Builds images",
      "--icon",
      "/icon/packer.svg",
    ]);
  });

  it("passes --ignore-lockfile without a lock file and says why", () => {
    const plan = planPush({ name: "k", dir, provisionerTags: {}, frontMatter }, { message: "m" });
    expect(plan.push.slice(-4)).toEqual(["--provisioner-tag=-", "-m", "m", "--ignore-lockfile"]);
    expect(plan.notes[0]).toContain("needs the Terraform registry");
  });
});

describe("tag formatting", () => {
  it("clears tags for an untagged template and prints (untagged)", () => {
    expect(provisionerTagArgs({})).toEqual(["--provisioner-tag=-"]);
    expect(formatProvisionerTags({})).toBe("(untagged)");
    expect(formatProvisionerTags({ b: "2", a: "1" })).toBe("a=1 b=2");
  });

  it("shell-quotes a printed command so it can be pasted", () => {
    expect(shellQuote(["push", "it's", "a b", "", "k=v", "--provisioner-tag=-"])).toBe(
      "push 'it'\\''s' 'a b' '' k=v --provisioner-tag=-",
    );
  });
});
