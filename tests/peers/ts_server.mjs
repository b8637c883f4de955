// A stdio MCP server built on the official TypeScript SDK's McpServer (npm
// @modelcontextprotocol/sdk, pinned in package.json), written as the SDK's documentation
// shows. It serves the reference's demo tools with the same names and arguments
// (lire_prix, echo, fail, attendre), so that mcpref judges the SDK's stdio layer and not a
// difference in tools. Run: node tests/peers/ts_server.mjs (after npm ci in tests/peers).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const PRIX = { baguette: 110, croissant: 130 };
const text = (value, isError = false) => ({ content: [{ type: "text", text: value }], isError });

const server = new McpServer({ name: "mcpref-peer-typescript", version: "0.1.0" });

server.registerTool(
  "lire_prix",
  { description: "Price of a bakery product, in euro cents.", inputSchema: { produit: z.string() } },
  async ({ produit }) =>
    Object.hasOwn(PRIX, produit) ? text(`${PRIX[produit]} centimes`) : text("Produit inconnu", true),
);
server.registerTool(
  "echo",
  { description: "Returns its text unchanged.", inputSchema: { text: z.string() } },
  async (args) => text(args.text),
);
server.registerTool("fail", { description: "Always fails, as a tool error." }, async () =>
  text("this tool always fails", true),
);
server.registerTool(
  "attendre",
  {
    description: "Waits the given number of milliseconds, then answers.",
    inputSchema: { ms: z.number().int().min(0).max(60000) },
  },
  async ({ ms }, extra) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return text(`attendu ${ms} ms`);
  },
);

await server.connect(new StdioServerTransport());
