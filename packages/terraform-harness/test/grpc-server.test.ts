/**
 * The mock's gRPC server on Node's HTTP/2: unary calls framed as gRPC frames them, answered
 * with the status in trailers, over a unix socket.
 */
import { connect, type ClientHttp2Session } from "node:http2";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frame, GrpcServer, unframe } from "../src/mock-provider/grpc-server";
import * as protocol from "../src/mock-provider/protocol-services";
import { protocolFromProtoFiles } from "../src/mock-provider/protocol-json";

const HEALTH = protocol.loadServices()["grpc.health.v1.Health"];
const CONTROLLER = protocol.loadServices()["plugin.GRPCController"];

describe("protocol.json", () => {
  it("is what the vendored .proto files give (regenerate: node scripts/ts.js packages/terraform-harness/src/mock-provider/protocol-json.ts --write)", () => {
    expect(readFileSync(protocol.PROTOCOL_FILE, "utf8")).toBe(protocolFromProtoFiles());
  });

  it("defines the services the mock serves, with gRPC paths", () => {
    const services = protocol.loadServices();
    expect(Object.keys(services).sort()).toEqual([
      "grpc.health.v1.Health",
      "plugin.GRPCController",
      "tfplugin6.Provider",
    ]);
    expect(services["tfplugin6.Provider"].PlanResourceChange.path).toBe(
      "/tfplugin6.Provider/PlanResourceChange",
    );
  });
});

describe("gRPC frames", () => {
  it("round-trip a message behind the 5-byte prefix", () => {
    const framed = frame(Buffer.from("hello"));
    expect([...framed.subarray(0, 5)]).toEqual([0, 0, 0, 0, 5]);
    expect(unframe(framed).toString()).toBe("hello");
  });

  it("refuse a short, compressed or truncated body", () => {
    expect(() => unframe(Buffer.from([0, 0]))).toThrow("shorter than a frame header");
    expect(() => unframe(Buffer.from([1, 0, 0, 0, 0]))).toThrow("compressed");
    expect(() => unframe(Buffer.from([0, 0, 0, 0, 9, 1]))).toThrow("frame says 9 bytes");
  });
});

describe("GrpcServer", () => {
  let dir: string;
  let server: InstanceType<typeof GrpcServer>;
  let client: ClientHttp2Session;
  /** Requests each handler was given, by method. */
  const handled = { Check: [] as (string | undefined)[], Shutdown: 0 };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "grpc-server-"));
    server = new GrpcServer();
    server.addService(
      HEALTH,
      {
        Check: (
          call: { request: { service?: string } },
          callback: (error: Error | null, response?: object) => void,
        ) => {
          handled.Check.push(call.request.service);
          return call.request.service === "broken"
            ? callback(new Error("no such service"))
            : callback(null, {
                status: call.request.service === "down" ? "NOT_SERVING" : "SERVING",
              });
        },
      },
      { memoize: ["Check"] },
    );
    server.addService(CONTROLLER, {
      Shutdown: (_call: unknown, callback: (error: Error | null, response?: object) => void) => {
        handled.Shutdown++;
        callback(null, {});
      },
    });
    const socket = join(dir, "s.sock");
    await server.listen(socket);
    client = connect("http://localhost", { path: socket } as object);
  });
  afterAll(() => {
    client?.close();
    server?.forceShutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One unary call: the response body and the grpc-status/-message from headers or trailers. */
  function call(path: string, body: Buffer) {
    return new Promise<{ body: Buffer; status?: string; message?: string }>((resolve, reject) => {
      const stream = client.request({
        ":method": "POST",
        ":path": path,
        "content-type": "application/grpc",
        te: "trailers",
      });
      const chunks: Buffer[] = [];
      let status: string | undefined;
      let message: string | undefined;
      const take = (headers: Record<string, unknown>) => {
        if (headers["grpc-status"] !== undefined) status = String(headers["grpc-status"]);
        if (headers["grpc-message"] !== undefined)
          message = decodeURIComponent(String(headers["grpc-message"]));
      };
      stream.on("response", take);
      stream.on("trailers", take);
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", reject);
      stream.on("close", () => resolve({ body: Buffer.concat(chunks), status, message }));
      stream.end(body);
    });
  }

  it("answers a unary call with the framed response and status 0 in the trailers", async () => {
    const reply = await call(HEALTH.Check.path, frame(HEALTH.Check.requestSerialize({})));
    expect(reply.status).toBe("0");
    expect(HEALTH.Check.responseDeserialize(unframe(reply.body))).toEqual({ status: "SERVING" });
  });

  it("answers UNIMPLEMENTED (12) for a method it does not serve", async () => {
    const reply = await call("/plugin.GRPCStdio/StreamStdio", frame(Buffer.alloc(0)));
    expect(reply).toMatchObject({
      status: "12",
      message: "unknown method /plugin.GRPCStdio/StreamStdio",
    });
  });

  it("answers UNKNOWN (2) with the handler's error, and INTERNAL (13) for a bad frame", async () => {
    const failed = await call(
      HEALTH.Check.path,
      frame(HEALTH.Check.requestSerialize({ service: "broken" })),
    );
    expect(failed).toMatchObject({ status: "2", message: "no such service" });
    const bad = await call(HEALTH.Check.path, Buffer.from([1, 0, 0, 0, 0]));
    expect(bad.status).toBe("13");
    expect(bad.message).toContain("compressed");
  });

  it("answers a memoized method's repeated request without its handler, and only that", async () => {
    const request = (service: string) => frame(HEALTH.Check.requestSerialize({ service }));
    handled.Check.length = 0;
    const first = await call(HEALTH.Check.path, request("up"));
    const again = await call(HEALTH.Check.path, request("up"));
    const other = await call(HEALTH.Check.path, request("down"));
    expect(handled.Check).toEqual(["up", "down"]);
    expect(again).toEqual(first);
    expect(HEALTH.Check.responseDeserialize(unframe(other.body))).toEqual({
      status: "NOT_SERVING",
    });
    // A failed call is never remembered; a method not named in `memoize` is always handled.
    await call(HEALTH.Check.path, request("broken"));
    expect(await call(HEALTH.Check.path, request("broken"))).toMatchObject({ status: "2" });
    expect(handled.Check).toEqual(["up", "down", "broken", "broken"]);
    const shutdown = frame(CONTROLLER.Shutdown.requestSerialize({}));
    await call(CONTROLLER.Shutdown.path, shutdown);
    expect(await call(CONTROLLER.Shutdown.path, shutdown)).toMatchObject({ status: "0" });
    expect(handled.Shutdown).toBe(2);
  });
});
