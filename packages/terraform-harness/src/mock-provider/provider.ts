#!/usr/bin/env node
/**
 * Mock Terraform provider (plugin protocol 6) serving the vendored schemas of the coder,
 * kubernetes and devcontainerbuilder providers, with fixture values for computed attributes.
 *
 * Runs from a bundle (mock-provider-bundle.ts writes it; `node <bundle> serve`).
 *
 * Modes:
 *   mock-provider.js serve Long-lived server for the test harness, driven by JSON lines on
 *                          stdin; exits when stdin closes. Each
 *                            {"op":"open","id":"1","fixtures":"/abs/fixtures.json"}
 *                          starts one gRPC server per provider on fresh unix sockets and answers
 *                            {"id":"1","reattach":{...TF_REATTACH_PROVIDERS value...}}
 *                          An optional "schemas":["/abs/coder-2.17.0.schema.json"] replaces,
 *                          for that set, each provider the documents hold (a release's schema).
 *                          {"op":"close","id":"1"} stops them ({"id":"1","closed":true}).
 *   mock-provider.js reattach Starts one set (fixtures from TFMOCK_FIXTURES), prints the
 *                          TF_REATTACH_PROVIDERS value on one line and serves until killed.
 *   as a plugin            Started by Terraform through dev_overrides (TF_PLUGIN_MAGIC_COOKIE
 *                          is set): serves one provider, chosen by the executable's name
 *                          terraform-provider-<name> (symlink) or TFMOCK_PROVIDER; fixtures from
 *                          TFMOCK_FIXTURES; AutoMTLS unless TF_DISABLE_PLUGIN_TLS is set.
 *
 * TFMOCK_SCHEMA_DIR overrides the schema directory (default: the repository's schemas/);
 * TFMOCK_LOG names a file that receives one line per RPC; TFMOCK_CPU_LOG one that receives
 * the process's CPU time in microseconds when it exits (the benchmark adds them up).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { FixtureFile } from "./fixtures";
import { GrpcServer, type ServerTls } from "./grpc-server";
import {
  DEFAULT_SCHEMA_DIR,
  findProvider,
  loadProviderSchemaFile,
  loadProviderSchemas,
  type ProviderSchema,
} from "./provider-schemas";
import { addProviderServices } from "./provider-service";
import { createSelfSignedCertificate } from "./self-signed-certificate";

/** A reattach entry of TF_REATTACH_PROVIDERS. */
interface ReattachConfig {
  readonly Protocol: "grpc";
  readonly ProtocolVersion: number;
  readonly Pid: number;
  readonly Test: boolean;
  readonly Addr: { readonly Network: "unix"; readonly String: string };
}

/** One open set of provider servers. */
interface ServerSet {
  readonly reattach: Record<string, ReattachConfig>;
  close(): void;
}

/** A control-channel request (see the modes above). */
interface ControlRequest {
  readonly op?: string;
  readonly id?: string;
  readonly fixtures?: string;
  /** Schema documents whose providers replace the default ones for this set (absolute paths). */
  readonly schemas?: readonly string[];
}

const MAGIC_COOKIE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
const CORE_PROTOCOL_VERSION = 1;
const PLUGIN_PROTOCOL_VERSION = 6;

const providers = loadProviderSchemas(process.env.TFMOCK_SCHEMA_DIR || DEFAULT_SCHEMA_DIR);

/** Schema documents an open request named, by path and modification time: read once each. */
const requestedSchemas = new Map<string, ReadonlyMap<string, ProviderSchema>>();

/**
 * The providers of one server set: the default ones, each replaced by the provider of the
 * same address in `files` (a release's schema: the tests plan a template against the oldest
 * and the newest provider release its bound admits).
 */
function providersFor(files: readonly string[] = []): ReadonlyMap<string, ProviderSchema> {
  if (files.length === 0) return providers;
  const chosen = new Map(providers);
  for (const file of files) {
    const key = `${file}\0${fs.statSync(file).mtimeMs}`;
    let loaded = requestedSchemas.get(key);
    if (!loaded) {
      loaded = loadProviderSchemaFile(file);
      requestedSchemas.set(key, loaded);
    }
    for (const [address, schema] of loaded) chosen.set(address, schema);
  }
  return chosen;
}

if (process.env.TFMOCK_CPU_LOG) {
  const log = process.env.TFMOCK_CPU_LOG;
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    fs.appendFileSync(log, `${user + system}\n`);
  });
}

/** One gRPC server per provider on unix sockets in a fresh directory; resolves with the reattach map. */
async function openServerSet(
  fixturesFile: string | undefined,
  schemaFiles?: readonly string[],
): Promise<ServerSet> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tfmock-"));
  const fixtures = new FixtureFile(fixturesFile);
  const servers: GrpcServer[] = [];
  const reattach: Record<string, ReattachConfig> = {};
  let index = 0;
  for (const provider of providersFor(schemaFiles).values()) {
    const server = new GrpcServer();
    // Reattached providers are not ours to stop: Terraform's Shutdown must not end the set.
    addProviderServices(server, provider, fixtures, {
      onShutdown: () => undefined,
      log: process.env.TFMOCK_LOG,
    });
    const socket = path.join(dir, `p${index++}.sock`);
    await server.listen(socket);
    servers.push(server);
    reattach[provider.address] = {
      Protocol: "grpc",
      ProtocolVersion: PLUGIN_PROTOCOL_VERSION,
      Pid: process.pid,
      // Mandatory: with Test false Terraform 1.11 panics on protocol 6 reattach.
      Test: true,
      Addr: { Network: "unix", String: socket },
    };
  }
  const close = () => {
    for (const server of servers) server.forceShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { reattach, close };
}

async function serveControlChannel(): Promise<void> {
  const sets = new Map<string | undefined, ServerSet>();
  const reply = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const lines = readline.createInterface({ input: process.stdin });
  lines.on("line", async (line) => {
    let request: ControlRequest | undefined;
    try {
      request = JSON.parse(line) as ControlRequest;
      if (request.op === "open") {
        const set = await openServerSet(request.fixtures, request.schemas);
        sets.set(request.id, set);
        reply({ id: request.id, reattach: set.reattach });
      } else if (request.op === "close") {
        const set = sets.get(request.id);
        if (set) set.close();
        sets.delete(request.id);
        reply({ id: request.id, closed: true });
      } else {
        reply({ id: request.id, error: `unknown op ${request.op}` });
      }
    } catch (error) {
      reply({ id: request && request.id, error: String((error as Error).stack || error) });
    }
  });
  lines.on("close", () => {
    for (const set of sets.values()) set.close();
    process.exit(0);
  });
  reply({ ready: true, pid: process.pid });
}

async function serveReattach(): Promise<void> {
  const set = await openServerSet(process.env.TFMOCK_FIXTURES);
  process.stdout.write(`${JSON.stringify(set.reattach)}\n`);
  const stop = () => {
    set.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** go-plugin's side of the handshake, for a process Terraform started itself. */
async function servePlugin(): Promise<void> {
  if (process.env.TF_PLUGIN_MAGIC_COOKIE !== MAGIC_COOKIE) {
    process.stderr.write("This binary is a plugin. It is meant to be executed by Terraform.\n");
    process.exit(1);
  }
  const versions = (process.env.PLUGIN_PROTOCOL_VERSIONS || "").split(",");
  if (!versions.includes(String(PLUGIN_PROTOCOL_VERSION))) {
    process.stderr.write(
      `mock provider speaks protocol ${PLUGIN_PROTOCOL_VERSION}, Terraform offers ${versions.join(",")}\n`,
    );
    process.exit(1);
  }
  const executable = path.basename(process.argv[1] ?? "");
  const name =
    process.env.TFMOCK_PROVIDER ||
    executable.replace(/^terraform-provider-/, "").replace(/[_.].*$/, "");
  const provider = findProvider(providers, name);
  const dir = fs.mkdtempSync(
    path.join(process.env.PLUGIN_UNIX_SOCKET_DIR || os.tmpdir(), "tfmock-plugin-"),
  );
  const socket = path.join(dir, "plugin.sock");
  const server = new GrpcServer();
  const exit = () => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  addProviderServices(server, provider, new FixtureFile(process.env.TFMOCK_FIXTURES), {
    // Exit promptly: go-plugin otherwise waits ~2 s per provider process.
    onShutdown: () => setImmediate(exit),
    log: process.env.TFMOCK_LOG,
  });
  // go-plugin dials with TLS whenever it sent a client certificate (AutoMTLS).
  const clientCert = process.env.TF_DISABLE_PLUGIN_TLS ? undefined : process.env.PLUGIN_CLIENT_CERT;
  let tls: ServerTls | undefined;
  let certificateField = "";
  if (clientCert) {
    const certificate = createSelfSignedCertificate();
    tls = { key: certificate.keyPem, cert: certificate.certPem, clientCa: clientCert };
    certificateField = certificate.certDerBase64Raw;
  }
  await server.listen(socket, tls);
  process.on("SIGTERM", exit);
  process.on("SIGINT", exit);
  const fields: (string | number)[] = [
    CORE_PROTOCOL_VERSION,
    PLUGIN_PROTOCOL_VERSION,
    "unix",
    socket,
    "grpc",
  ];
  if (certificateField) fields.push(certificateField);
  process.stdout.write(`${fields.join("|")}\n`);
}

function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === "serve") return serveControlChannel();
  if (mode === "reattach") return serveReattach();
  return servePlugin();
}

main().catch((error: unknown) => {
  process.stderr.write(`mock provider: ${(error as Error).stack || String(error)}\n`);
  process.exit(1);
});
