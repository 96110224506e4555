// Drives a server's Tasks through the @modelcontextprotocol/ext-tasks client
// API on a @modelcontextprotocol/client 2.4.0 Client: the 2026-07-28 Tasks
// extension ("Tasks V2") by default, the Tasks of 2025-11-25 with
// TASKS_PROTOCOL=2025-11-25 (the client is pinned to that protocol):
//   node tasks.mjs stdio COMMAND ARGS... | node tasks.mjs http URL
// Env: TASKS_TOOL (default "orchestrate"), TASKS_ARGS (JSON arguments, default
// {"task":"add 40 and 2"}), TASKS_CANCEL=1 (cancel the task at the first
// `working` status with a statusMessage), TASKS_TIMEOUT_MS (default 60000),
// INTEROP_TOKEN (HTTP bearer token).
// Prints one JSON line: {"created", "statuses", "messages", "inputs",
// "updates", "result", "error"}; exits 0 once it ran to the end (a failed or
// cancelled task is reported in "error"), 1 on a setup failure (on stderr).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";

const PROTOCOL = process.env.TASKS_PROTOCOL || "2026-07-28";
const MODERN = PROTOCOL === "2026-07-28";
const TASKS_EXT = "io.modelcontextprotocol/tasks";
const clientInfo = { name: "interop-tasks", version: "1" };
const clientCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

// errorText spells out an error with its causes: ext-tasks wraps schema
// failures ("Protocol value failed schema validation") around the zod issues.
function errorText(error) {
  const parts = [];
  for (let e = error; e !== undefined && e !== null && parts.length < 4; e = e.cause)
    parts.push(String(e instanceof Error ? e.message : e).replace(/\s+/g, " "));
  return parts.filter((part, i) => part !== parts[i - 1]).join(": ");
}

function setupFailure(why) {
  process.stderr.write(`tasks: ${why instanceof Error ? why.message : why}\n`);
  process.exit(1);
}

// The same answers checks.mjs gives to server-initiated requests.
function answerInput(request) {
  switch (request.kind) {
    case "elicitation": return { action: "accept", content: { name: "interop-elicited-name" } };
    case "sampling": return { model: "interop-model", role: "assistant", content: { type: "text", text: "interop-sampled-text" } };
    case "roots": return { roots: [{ uri: "file:///interop/root", name: "interop" }] };
    default: throw new Error(`unexpected input request kind ${request.kind}`);
  }
}

// rawDispatcher returns the session's rawDispatch: it sends the JSON-RPC
// request ext-tasks hands it (already framed with the 2026-07-28 _meta
// envelope) straight over the transport and resolves to the raw
// {kind:"result"|"error"} answer. Client.request cannot carry this traffic:
// its 2026-07-28 codec rejects resultType "task" ("Unsupported result type")
// and strips resultType off complete results, which ext-tasks' schemas
// require. String ids (as the SDK's own server/discover probe uses) never
// collide with the Client's numeric ones, and answers carrying them are taken
// off transport.onmessage before the Client sees them.
function rawDispatcher(transport, onRequest) {
  const pending = new Map();
  let next = 0;
  const clientOnMessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const waiter = typeof message?.id === "string" ? pending.get(message.id) : undefined;
    if (waiter && ("result" in message || "error" in message)) return waiter(message);
    return clientOnMessage?.call(transport, message, extra);
  };
  return async (request, options = {}) => {
    onRequest(request);
    const id = `tasks-raw-${++next}`;
    const signal = AbortSignal.any([AbortSignal.timeout(options.context?.requestTimeoutMs ?? 30_000),
      ...(options.signal ? [options.signal] : [])]);
    signal.throwIfAborted();
    const stream = new AbortController(); // ends the HTTP POST when we give up
    const message = await new Promise((resolve, reject) => {
      const abort = () => { pending.delete(id); stream.abort(); reject(signal.reason); };
      signal.addEventListener("abort", abort, { once: true });
      pending.set(id, (answer) => {
        pending.delete(id);
        signal.removeEventListener("abort", abort);
        resolve(answer);
      });
      // The transport sets Mcp-Method/Mcp-Name itself from the body (it drops
      // those names from per-request headers), so context.headers just passes on.
      transport.send({ ...request, jsonrpc: "2.0", id },
        { headers: options.context?.headers, requestSignal: stream.signal }).catch((error) => {
        pending.delete(id);
        signal.removeEventListener("abort", abort);
        reject(error);
      });
    });
    return "error" in message ? { kind: "error", error: message.error } : { kind: "result", result: message.result };
  };
}

// Setup: connect, check the extension, open the task session.
const [mode, ...rest] = process.argv.slice(2);
if (!(mode === "stdio" && rest.length > 0) && !(mode === "http" && rest.length === 1))
  setupFailure("usage: stdio COMMAND [ARGS...] | http URL");
let toolArgs;
try {
  toolArgs = JSON.parse(process.env.TASKS_ARGS || '{"task":"add 40 and 2"}');
} catch (error) {
  setupFailure(`TASKS_ARGS: ${error.message}`);
}
const toolName = process.env.TASKS_TOOL || "orchestrate";
const wantCancel = process.env.TASKS_CANCEL === "1";

// The client pins 2026-07-28; for 2025-11-25 it takes the legacy handshake.
const client = new Client(clientInfo, { capabilities: clientCapabilities,
  versionNegotiation: { mode: MODERN ? { pin: PROTOCOL } : "legacy" } });
const headers = process.env.INTEROP_TOKEN ? { Authorization: `Bearer ${process.env.INTEROP_TOKEN}` } : {};
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: process.env, stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(rest[0]), { requestInit: { headers } });
await client.connect(transport).catch((error) => setupFailure(`connect: ${errorText(error)}`));
if (client.getNegotiatedProtocolVersion() !== PROTOCOL)
  setupFailure(`negotiated ${client.getNegotiatedProtocolVersion()}, want ${PROTOCOL}`);
// A first tools/list waits for the servers still connecting, and the tool
// list changes (tools/list_changed) as they come up. ext-tasks 0.2.2 lists
// tools for its declarations as the session starts and again on every
// list_changed; when one arrives just as the first list is answered, the
// session briefly holds no declarations and refuses a required task
// ("Task execution was required but is unavailable"). Listing here first
// lets the servers come up before the session starts.
await client.listTools().catch((error) => setupFailure(`tools/list: ${errorText(error)}`));
// ext-tasks picks "v2" only for exactly {} here; anything else means "none".
// On 2025-11-25 it takes the tasks capability instead.
const ext = client.getServerCapabilities()?.extensions?.[TASKS_EXT];
if (MODERN && (ext === null || typeof ext !== "object" || Array.isArray(ext) || Object.keys(ext).length !== 0))
  setupFailure(`server capabilities.extensions["${TASKS_EXT}"] is ${JSON.stringify(ext)}, want {}`);
if (!MODERN && !client.getServerCapabilities()?.tasks?.requests?.tools?.call)
  setupFailure(`server capabilities.tasks is ${JSON.stringify(client.getServerCapabilities()?.tasks)}: no task-augmented tools/call`);

const out = { created: null, statuses: [], messages: [], inputs: [], updates: 0, result: null, error: null };
// Statuses and messages are recorded deduplicated consecutively.
const pushNew = (list, value) => { if (value && list.at(-1) !== value) list.push(value); };
const record = (task) => { pushNew(out.statuses, task?.status); pushNew(out.messages, task?.statusMessage); };

let session;
try {
  session = createTaskSessionFromClient(client, {
    endpointId: `interop-tasks:${rest.join(" ")}`,
    ...(MODERN ? {
      rawDispatch: rawDispatcher(transport, (request) => { if (request.method === "tasks/update") out.updates++; }),
      v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo, clientCapabilities },
    } : {}),
    onInputRequest: async (request) => { out.inputs.push(request.kind); return answerInput(request); },
    onError: (error) => process.stderr.write(`tasks: background error: ${errorText(error)}\n`),
  });
} catch (error) {
  setupFailure(`createTaskSessionFromClient: ${errorText(error)}`);
}
if (!session.capabilities.execution || (MODERN && !session.capabilities.inputResponses))
  setupFailure(`the session did not take the ${MODERN ? "V2" : "V1"} path: ${JSON.stringify(session.capabilities)}`);

// The run: call the tool, follow the task to its end, report.
try {
  // "require": a tool whose taskSupport is "optional" runs as a task only
  // when asked to on 2025-11-25; on 2026-07-28 the server decides.
  const callOptions = { signal: AbortSignal.timeout(Number(process.env.TASKS_TIMEOUT_MS) || 60_000), task: { preference: "require" } };
  // A server-everything started by this run still adds a tool once it has
  // seen the client; should its list_changed race the session's tools/list
  // as above, the next declarations settle it: one more try.
  const execution = await session.callTool(toolName, toolArgs, callOptions).catch((error) =>
    String(error?.message).includes("required but is unavailable")
      ? session.callTool(toolName, toolArgs, callOptions)
      : Promise.reject(error));
  out.created = execution.kind === "task" ? execution.handle.taskId : null;
  let cancelling = false;
  const { outcome } = await execution.settle({
    // Every snapshot the library accepts (the CreateTaskResult, then each
    // changed tasks/get answer), then the outcome.
    onEvent: async (event) => {
      if (event.type !== "task") return record(event.outcome.task);
      record(event.task);
      if (wantCancel && !cancelling && event.task.status === "working" && event.task.statusMessage) {
        cancelling = true;
        await execution.cancel();
      }
    },
  });
  // A V2 cancel ends the execution on the server's acknowledgement, before
  // any `cancelled` snapshot is polled: follow the task (the non-owning
  // controller polls tasks/get) until the server reports it terminal.
  if (cancelling && !TERMINAL.has(out.statuses.at(-1))) {
    try {
      record((await session.task(out.created).result({ signal: AbortSignal.timeout(10_000) })).task);
    } catch (error) {
      process.stderr.write(`tasks: final tasks/get: ${errorText(error)}\n`);
    }
  }
  out.result = resultFromTaskOutcome(outcome); // throws for failed and cancelled
} catch (error) {
  out.error = errorText(error);
}
await session.close().catch(() => {});
await client.close().catch(() => {});
process.stdout.write(JSON.stringify(out) + "\n", () => process.exit(0));
