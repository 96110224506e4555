// Runs the interop checks with the TypeScript SDK v1 client
// (@modelcontextprotocol/sdk, protocol 2025-11-25):
//   node sdk-v1.mjs stdio COMMAND ARGS... | node sdk-v1.mjs http URL
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { elicitAnswer, httpHeaders, parseArgs, rootsAnswer, runChecks, sampleAnswer } from "./checks.mjs";

const target = parseArgs(process.argv.slice(2));
const client = new Client({ name: "interop-sdk-v1", version: "1" },
  { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } });
client.setRequestHandler(CreateMessageRequestSchema, async () => sampleAnswer());
client.setRequestHandler(ElicitRequestSchema, async (request) => elicitAnswer(request));
client.setRequestHandler(ListRootsRequestSchema, async () => rootsAnswer());

const transport = target.transport === "stdio"
  ? new StdioClientTransport({ command: target.command, args: target.args, env: process.env, stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: httpHeaders() } });
// The SDK keeps the negotiated version to itself; the transport is told it.
let negotiated = "";
const setVersion = transport.setProtocolVersion?.bind(transport);
transport.setProtocolVersion = (v) => { negotiated = v; setVersion?.(v); };
await client.connect(transport);

await runChecks({
  client,
  era: negotiated,
  call: (name, args, opts = {}) => client.callTool({ name, arguments: args }, CallToolResultSchema,
    { onprogress: opts.onprogress, signal: opts.signal, timeout: 90_000, resetTimeoutOnProgress: true }),
  onToolsListChanged: async (fn) => client.setNotificationHandler(ToolListChangedNotificationSchema, fn),
});
await client.close();
