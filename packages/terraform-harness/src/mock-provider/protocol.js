"use strict";
/**
 * The gRPC services the mock serves (tfplugin6.Provider, go-plugin's GRPCController, the
 * health service), as method definitions: path, whether a side streams, and the message
 * (de)serializers, in the shape grpc-server.js registers.
 *
 * They come from protocol.json, protobufjs's JSON form of the three vendored .proto files,
 * read with protobufjs's light build: parsing the .proto text at every mock start cost ~60 ms
 * (a third of the start), 31 times per `npm test`. protocol.json is generated, never edited:
 *   node packages/terraform-harness/src/mock-provider/protocol.js --write
 * and a test checks that it is what the .proto files give.
 */
const fs = require("node:fs");
const path = require("node:path");
const { harnessFile } = require("../package-files");

// Found from the package, not from `__dirname`: the mock runs from a bundle in build/.
const PROTO_FILES = ["tfplugin6.proto", "go-plugin.proto", "health.proto"];
const PROTOCOL_FILE = harnessFile("mock-provider", "protocol.json");

// keepCase: map fields such as resource_schemas must keep their names, or they vanish silently.
const PARSE_OPTIONS = { keepCase: true };
// Decoded messages as the handlers read them: 64-bit integers as numbers, enums by name,
// absent fields absent, the set member of a oneof named by its oneof.
const OBJECT_OPTIONS = { longs: Number, enums: String, defaults: false, oneofs: true };

/** protocol.json's content for the .proto files (needs protobufjs's full build, with the parser). */
function protocolFromProtoFiles() {
  const protobuf = require("protobufjs");
  const root = new protobuf.Root().loadSync(
    PROTO_FILES.map((f) => harnessFile("mock-provider", f)),
    PARSE_OPTIONS,
  );
  return `${JSON.stringify(root.toJSON(), null, 2)}\n`;
}

/** Service definitions by fully qualified service name, then method name. */
function loadServices() {
  const protobuf = require("protobufjs/light");
  const root = protobuf.Root.fromJSON(JSON.parse(fs.readFileSync(PROTOCOL_FILE, "utf8")));
  const services = {};
  (function walk(namespace, prefix) {
    for (const nested of namespace.nestedArray) {
      const name = prefix ? `${prefix}.${nested.name}` : nested.name;
      if (nested instanceof protobuf.Service) services[name] = serviceDefinition(nested, name);
      else if (nested.nestedArray) walk(nested, name);
    }
  })(root, "");
  return services;
}

function serviceDefinition(service, serviceName) {
  const definition = {};
  for (const method of service.methodsArray) {
    method.resolve();
    const request = method.resolvedRequestType;
    const response = method.resolvedResponseType;
    definition[method.name] = {
      path: `/${serviceName}/${method.name}`,
      requestStream: Boolean(method.requestStream),
      responseStream: Boolean(method.responseStream),
      requestDeserialize: (bytes) => request.toObject(request.decode(bytes), OBJECT_OPTIONS),
      responseSerialize: (value) =>
        Buffer.from(response.encode(response.fromObject(value)).finish()),
      // The client's side, for tests that call the server.
      requestSerialize: (value) => Buffer.from(request.encode(request.fromObject(value)).finish()),
      responseDeserialize: (bytes) => response.toObject(response.decode(bytes), OBJECT_OPTIONS),
    };
  }
  return definition;
}

if (require.main === module) {
  if (process.argv[2] !== "--write") {
    process.stderr.write(
      "usage: node packages/terraform-harness/src/mock-provider/protocol.js --write\n",
    );
    process.exit(2);
  }
  fs.writeFileSync(PROTOCOL_FILE, protocolFromProtoFiles());
  process.stdout.write(`wrote ${path.relative(process.cwd(), PROTOCOL_FILE)}\n`);
}

module.exports = { loadServices, protocolFromProtoFiles, PROTOCOL_FILE };
