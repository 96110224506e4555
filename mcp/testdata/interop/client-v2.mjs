// Runs the interop checks with the TypeScript SDK v2 client
// (@modelcontextprotocol/client, pinned to protocol 2026-07-28):
//   node client-v2.mjs stdio COMMAND ARGS... | node client-v2.mjs http URL
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { elicitAnswer, httpHeaders, parseArgs, rootsAnswer, runChecks, sampleAnswer } from "./checks.mjs";

const target = parseArgs(process.argv.slice(2));
const client = new Client({ name: "interop-client-v2", version: "2" }, {
  capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
  versionNegotiation: { mode: { pin: "2026-07-28" } },
});
client.setRequestHandler("sampling/createMessage", async () => sampleAnswer());
client.setRequestHandler("elicitation/create", async (request) => elicitAnswer(request));
client.setRequestHandler("roots/list", async () => rootsAnswer());

const transport = target.transport === "stdio"
  ? new StdioClientTransport({ command: target.command, args: target.args, env: process.env, stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: httpHeaders() } });
await client.connect(transport);

let subscription;
await runChecks({
  client,
  era: client.getNegotiatedProtocolVersion(),
  call: (name, args, opts = {}) => client.callTool({ name, arguments: args },
    { onprogress: opts.onprogress, signal: opts.signal, timeout: 90_000, resetTimeoutOnProgress: true }),
  // On 2026-07-28 change notifications come on a subscriptions/listen stream.
  onToolsListChanged: async (fn) => {
    client.setNotificationHandler("notifications/tools/list_changed", fn);
    subscription = await client.listen({ toolsListChanged: true });
  },
});
await subscription?.close();
await client.close();
