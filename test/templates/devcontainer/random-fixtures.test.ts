/**
 * Random bad input (issue 8 item 4): a fixed number of Dev Container metadata fixtures drawn
 * from a seeded PRNG (the same on every run) plan the whole devcontainer template without an
 * error, and every planned workspace passes the same sanity checks as the matrix.
 * To try other or more fixtures locally:
 *   BAD_INPUT_SEED=<n> BAD_INPUT_COUNT=<m> npx jest test/devcontainer-template/random-fixtures
 * (12 by default: the suite's time is a budget, even with the cases planned in module batches).
 */
import {
  BadInputPlanner,
  type PlannedWorkspace,
  randomBadInputCases,
  type RandomCase,
  saneWorkspaceProblems,
} from "./bad-inputs";

jest.setTimeout(180_000);

const SEED = Number(process.env.BAD_INPUT_SEED ?? 20261006);
const COUNT = Number(process.env.BAD_INPUT_COUNT ?? 12);
const cases = randomBadInputCases(SEED, COUNT);
let planner: BadInputPlanner;
const plans = new Map<string, Promise<PlannedWorkspace>>();

beforeAll(async () => {
  planner = await BadInputPlanner.start();
  const planned = planner.planMany(cases);
  cases.forEach((c, index) => plans.set(c.name, planned[index]));
  await Promise.allSettled(planned);
});

afterAll(async () => {
  await planner?.stop();
});

it("draws the same fixtures for the same seed, and others for another", () => {
  expect(randomBadInputCases(SEED, COUNT)).toEqual(cases);
  expect(randomBadInputCases(SEED + 1, COUNT)).not.toEqual(cases);
  expect(cases).toHaveLength(COUNT);
});

it("draws forwardPorts labels over the 64-byte display-name cap, multi-byte ones too", () => {
  // Without them the random cases would not exercise lib/devcontainer/apps.ts's cap (the
  // sane-workspace check asserts every planned port app's display_name is within 64 bytes).
  const labels = cases.flatMap((c) => {
    const ports = c.metadata.forward_ports;
    return Array.isArray(ports) ? ports.map((p) => (p as { label?: unknown })?.label) : [];
  });
  const over = labels.filter(
    (l): l is string => typeof l === "string" && Buffer.byteLength(l, "utf8") > 64,
  );
  expect(over.length).toBeGreaterThan(0);
  expect(over.some((l) => Buffer.byteLength(l, "utf8") > l.length)).toBe(true);
});

it("caps such a label in at least one planned case, with the warning", async () => {
  const planned = await Promise.allSettled([...plans.values()]);
  const capped = planned.flatMap((p) =>
    p.status === "fulfilled"
      ? p.value.warnings.filter((w) => /^portsAttributes label .* is longer than 64 bytes/.test(w))
      : [],
  );
  expect(capped.length).toBeGreaterThan(0);
});

it.each(cases.map((c) => [c.name, c] as const))(
  "%s plans a sane workspace",
  async (_name, c: RandomCase) => {
    const workspace = await (plans.get(c.name) ?? Promise.reject(new Error("not planned"))).catch(
      (error: Error) => {
        throw new Error(`${error.message}\nfixture: ${JSON.stringify(c)}`, { cause: error });
      },
    );
    const problems = saneWorkspaceProblems(workspace, c.sanity);
    expect({ problems, fixture: problems.length > 0 ? c : "(not shown)" }).toEqual({
      problems: [],
      fixture: "(not shown)",
    });
  },
);
