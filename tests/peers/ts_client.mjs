// The official TypeScript SDK client (npm @modelcontextprotocol/sdk, pinned in package.json)
// driving a stdio server through one session: handshake, tools/list, lire_prix for a
// success and for a tool error, then ping. Prints one JSON object on stdout.
//
//   node tests/peers/ts_client.mjs VERSION -- COMMAND [ARGS...]
//
// VERSION "default" lets the SDK request its own latest version. Any other value forces the
// protocolVersion the client requests: the SDK always sends LATEST_PROTOCOL_VERSION, so the
// initialize request is rewritten on its way to the transport (the SDK's public Transport
// interface), and the client then checks the server's answer against its own supported list.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

const argv = process.argv.slice(2);
const cut = argv.indexOf("--");
if (argv.length < 3 || cut !== 1) {
  process.stderr.write("usage: node ts_client.mjs VERSION -- COMMAND [ARGS...]\n");
  process.exit(2);
}
const requested = argv[0] === "default" ? LATEST_PROTOCOL_VERSION : argv[0];
const [command, ...args] = argv.slice(cut + 1);

const transport = new StdioClientTransport({ command, args, stderr: "ignore" });
const send = transport.send.bind(transport);
let negotiated = null;
transport.setProtocolVersion = (version) => {
  negotiated = version; // the client hands the negotiated version to transports that want it
};
transport.send = (message, options) => {
  if (message.method === "initialize") {
    message = { ...message, params: { ...message.params, protocolVersion: requested } };
  }
  return send(message, options);
};

const client = new Client({ name: "mcpref-interop-typescript", version: "0.1.0" });
const timeout = { timeout: 10000 };
const report = { sdk: "@modelcontextprotocol/sdk", requested, supported: SUPPORTED_PROTOCOL_VERSIONS };
try {
  await client.connect(transport, timeout);
  report.serverInfo = client.getServerVersion();
  report.capabilities = client.getServerCapabilities();
  report.protocolVersion = negotiated;
  const tools = await client.listTools(undefined, timeout);
  report.tools = tools.tools.map((tool) => tool.name);
  report.croissant = await client.callTool({ name: "lire_prix", arguments: { produit: "croissant" } }, undefined, timeout);
  report.kiwi = await client.callTool({ name: "lire_prix", arguments: { produit: "kiwi" } }, undefined, timeout);
  report.ping = await client.ping(timeout);
  report.ok = true;
} catch (error) {
  report.ok = false;
  report.error = String(error && error.stack ? error.stack : error);
} finally {
  await client.close().catch(() => {});
}
// Exit once the report is written: stdout to a pipe is asynchronous, and process.exit() would cut
// a long report at 64 KiB.
process.stdout.write(JSON.stringify(report) + "\n", () => process.exit(report.ok ? 0 : 1));
