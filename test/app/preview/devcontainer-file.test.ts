/**
 * Reading a repository's devcontainer.json when the repository is hostile
 * (app/preview/devcontainer-file.ts): links out of it, devices, FIFOs, huge or deeply nested
 * files, other encodings. None of them may hang preview, exhaust its memory, or show a file
 * of the operator's as the repository's.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  MAX_DEVCONTAINER_DEPTH,
  MAX_DEVCONTAINER_FILE_BYTES,
  readDevcontainerFile,
} from "../../../app/preview/devcontainer-file";
import { dockerfileNotes } from "../../../app/preview/dockerfile-notes";
import { runPreview } from "../../../scripts/commands/run-preview";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "preview-file-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A repository `name` whose .devcontainer/devcontainer.json is made by `make(path)`. */
function repository(name: string, make: (file: string) => void): string {
  const dir = join(root, name);
  mkdirSync(join(dir, ".devcontainer"), { recursive: true });
  make(join(dir, ".devcontainer", "devcontainer.json"));
  return dir;
}

const message = (dir: string) => {
  const found = readDevcontainerFile(dir);
  return found.kind === "unreadable" ? found.message : found.kind;
};

describe("readDevcontainerFile", () => {
  it("does not follow a link out of the repository, to a file or through .devcontainer", () => {
    const secret = join(root, "secret.json");
    writeFileSync(secret, '{ "image": "alpine", "containerEnv": { "GH": "ghp_SECRET123" } }');
    const linked = repository("link-out", (file) => symlinkSync(secret, file));
    expect(message(linked)).toMatch(/^is a link to a file outside the repository/);

    const outside = join(root, "outside-folder");
    mkdirSync(outside);
    writeFileSync(join(outside, "devcontainer.json"), '{ "image": "alpine" }');
    const dir = join(root, "linked-folder");
    mkdirSync(dir);
    symlinkSync(outside, join(dir, ".devcontainer"));
    expect(message(dir)).toMatch(/^is a link to a file outside the repository/);
  });

  it("follows a link that stays in the repository, as the service's clone does", () => {
    const dir = repository("link-in", (file) => {
      writeFileSync(join(file, "..", "real.json"), '{ "image": "alpine" }');
      symlinkSync("real.json", file);
    });
    expect(readDevcontainerFile(dir)).toMatchObject({
      kind: "config",
      config: { image: "alpine" },
    });
  });

  it("reads no device, FIFO or folder (a link to /dev/zero would never end)", () => {
    expect(message(repository("zero", (file) => symlinkSync("/dev/zero", file)))).toMatch(
      /^is a link to a file outside the repository/,
    );
    const fifo = repository("fifo", (file) => execFileSync("mkfifo", [file]));
    expect(message(fifo)).toBe("is not a regular file (a folder, a device or a FIFO)");
    const folder = repository("folder", (file) => mkdirSync(file));
    expect(message(folder)).toBe("is not a regular file (a folder, a device or a FIFO)");
  });

  it("reads at most 1 MiB and at most 256 levels of nesting", () => {
    const big = repository("big", (file) =>
      writeFileSync(
        file,
        `{ "image": "alpine", "x": "${"a".repeat(MAX_DEVCONTAINER_FILE_BYTES)}" }`,
      ),
    );
    expect(message(big)).toMatch(/^is \d+ bytes; preview reads at most 1048576$/);
    const depth = MAX_DEVCONTAINER_DEPTH + 1;
    const deep = repository("deep", (file) =>
      writeFileSync(file, `{ "image": "alpine", "x": ${"[".repeat(depth)}${"]".repeat(depth)} }`),
    );
    expect(message(deep)).toMatch(/more than 256 levels deep/);
    // Brackets in strings and comments do not count.
    const text = repository("brackets-in-text", (file) =>
      writeFileSync(
        file,
        `// ${"[".repeat(300)}\n{ "image": "alpine", "x": "${"{".repeat(300)}" }`,
      ),
    );
    expect(readDevcontainerFile(text).kind).toBe("config");
  });

  it("counts the depth as the parser nests, past an unterminated string (issue 32.7)", () => {
    // jsonc-parser ends a string at the line break; a scanner of preview's own read on to the
    // next quote, saw one level, and the parser overflowed its stack on the rest.
    const deep = repository("unterminated-string", (file) =>
      writeFileSync(
        file,
        `{ "image": "alpine", "x": "open\n, "y": ${"[".repeat(3000)}${"]".repeat(3000)} }`,
      ),
    );
    expect(message(deep)).toMatch(/more than 256 levels deep/);
    // An unterminated string with shallow brackets after it is read, as the CLI reads it.
    const shallow = repository("unterminated-shallow", (file) =>
      writeFileSync(file, `{ "image": "alpine", "x": "open\n, "y": [[1]] }`),
    );
    expect(readDevcontainerFile(shallow)).toMatchObject({
      kind: "config",
      config: { image: "alpine", y: [[1]] },
    });
    // Exactly the limit is read; one more is not.
    const atLimit = (depth: number) =>
      repository(`depth-${depth}`, (file) =>
        writeFileSync(file, `{ "x": ${"[".repeat(depth - 1)}${"]".repeat(depth - 1)} }`),
      );
    expect(readDevcontainerFile(atLimit(MAX_DEVCONTAINER_DEPTH)).kind).toBe("config");
    expect(message(atLimit(MAX_DEVCONTAINER_DEPTH + 1))).toMatch(/more than 256 levels deep/);
  });

  it("says a UTF-16 file is no UTF-8, and notes bytes that are not UTF-8", () => {
    const utf16 = repository("utf16", (file) =>
      writeFileSync(
        file,
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"image":"alpine"}', "utf16le")]),
      ),
    );
    expect(message(utf16)).toMatch(/^is UTF-16/);
    const latin1 = repository("latin1", (file) =>
      writeFileSync(
        file,
        Buffer.concat([Buffer.from('{"image":"alp'), Buffer.from([0xe9]), Buffer.from('ine"}')]),
      ),
    );
    expect(readDevcontainerFile(latin1)).toMatchObject({ kind: "config", invalidUtf8: true });
  });
});

describe("preview's messages", () => {
  it("lists the syntax errors of a file that names no image: they may hide it", async () => {
    const dir = repository("no-image-syntax", (file) => writeFileSync(file, '{ "image" 5, oops }'));
    let stderr = "";
    const status = await runPreview([dir], {
      stdout: () => undefined,
      stderr: (t) => (stderr += t),
    });
    expect(status).toBe(1);
    expect(stderr).toMatch(/names no image/);
    expect(stderr).toMatch(/syntax errors, which may hide the image/);
    expect(stderr).toMatch(/devcontainer\.json:1:\d+: \w+/);
  });

  it("exit 1 for a file it does not read, and escape what a terminal would act on", async () => {
    const folder = join(root, "esc", ".devcontainer", "\u001b]0;PWNED\u0007\u202e");
    mkdirSync(folder, { recursive: true });
    execFileSync("mkfifo", [join(folder, "devcontainer.json")]);
    let stderr = "";
    const status = await runPreview([join(folder, "devcontainer.json")], {
      stdout: () => undefined,
      stderr: (t) => (stderr += t),
    });
    expect(status).toBe(1);
    expect(stderr).toContain("\\x1b]0;PWNED\\x07\\u202e");
    expect(stderr).toMatch(/is not a regular file/);
    // eslint-disable-next-line no-control-regex -- what must not be printed
    expect(stderr).not.toMatch(/[\u001b\u0007\u202e]/);
  });
});

describe("dockerfileNotes", () => {
  it("says when the Dockerfile is missing, no file, or outside the repository; never reads it", () => {
    const dir = repository("dockerfiles", (file) => writeFileSync(file, "{}"));
    writeFileSync(join(dir, ".devcontainer", "Dockerfile"), "FROM alpine\n");
    mkdirSync(join(dir, ".devcontainer", "folder"));
    const file = join(dir, ".devcontainer", "devcontainer.json");
    const notes = (config: Record<string, unknown>) =>
      dockerfileNotes({ kind: "config", file, config, syntaxErrors: [] }, config, dir);
    expect(notes({ build: { dockerfile: "Dockerfile" } })).toEqual([]);
    expect(notes({ build: { dockerfile: "Nope" } })).toEqual([
      expect.stringMatching(
        /^build\.dockerfile "Nope" \(.*\) is not in the repository: the image build fails/,
      ),
    ]);
    expect(notes({ dockerFile: "folder" })).toEqual([
      expect.stringMatching(/^dockerFile "folder" \(.*\) is not a file:/),
    ]);
    expect(notes({ build: { dockerfile: "../../../../../../etc/passwd" } })).toEqual([
      expect.stringMatching(
        /"\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" \(\/etc\/passwd\) lies outside the repository/,
      ),
    ]);
    expect(notes({ image: "alpine" })).toEqual([]);
  });
});
