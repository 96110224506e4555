// The checks every TypeScript SDK client runs against toolhub, with
// server-everything and an MCP Apps server behind it. Each check prints one
// JSON line: {"check": NAME, "ok": BOOL, "detail": TEXT}. The SDK scripts
// (sdk-v1.mjs, client-v2.mjs) give a connected client and the few calls
// whose shape differs between the SDK majors.
import { writeFileSync } from "node:fs";

export const ROOT_URI = "file:///interop/root";
export const SAMPLED = "interop-sampled-text";
export const ELICITED = "interop-elicited-name";

const checkTimeoutMs = 45_000;

// The client's answers to server-initiated requests, the same for both majors.
export function sampleAnswer() {
  return { model: "interop-model", role: "assistant", content: { type: "text", text: SAMPLED } };
}

// RESEARCH is what server-everything's task-only research tool reports
// once the client has picked the interpretation elicitAnswer gives.
export const RESEARCH = "# Research Report: python (snake)";

export function elicitAnswer(request) {
  const schema = request?.params?.requestedSchema ?? {};
  if (schema.properties?.interpretation) return { action: "accept", content: { interpretation: "snake" } };
  return { action: "accept", content: { name: ELICITED } };
}

export function rootsAnswer() {
  return { roots: [{ uri: ROOT_URI, name: "interop" }] };
}

// parseArgs reads "stdio COMMAND ARGS..." or "http URL".
export function parseArgs(argv) {
  const [transport, ...rest] = argv;
  if (transport === "stdio" && rest.length > 0) return { transport, command: rest[0], args: rest.slice(1) };
  if (transport === "http" && rest.length === 1) return { transport, url: rest[0] };
  throw new Error("usage: stdio COMMAND [ARGS...] | http URL");
}

// httpHeaders carries the bearer token from INTEROP_TOKEN.
export function httpHeaders() {
  return process.env.INTEROP_TOKEN ? { Authorization: `Bearer ${process.env.INTEROP_TOKEN}` } : {};
}

function report(check, ok, detail) {
  process.stdout.write(JSON.stringify({ check, ok, detail: String(detail ?? "") }) + "\n");
}

function withTimeout(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

function text(result) {
  return (result?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

function expect(cond, detail) {
  if (!cond) throw new Error(detail);
}

// eventually resolves once cond() holds (the check's timeout bounds it).
function eventually(cond, what) {
  return new Promise((resolve) => {
    const tick = () => (cond() ? resolve() : setTimeout(tick, 20));
    tick();
  }).then(() => what);
}

// sdk: { client, era, call(name, args, opts), onToolsListChanged(fn) }
export async function runChecks(sdk) {
  const { client } = sdk;
  report("connect", true, sdk.era);
  const checks = [
    // First, before any other list: the MCP Apps server's ui:// resource.
    ["apps_ui", async () => {
      const { resources } = await client.listResources();
      const ui = resources.find((r) => r.uri.startsWith("ui://"));
      expect(ui, `no ui:// resource among ${resources.map((r) => r.uri).join(", ")}`);
      const read = await client.readResource({ uri: ui.uri });
      const body = read.contents?.[0];
      expect(body?.text?.includes("<html") || body?.text?.includes("<!DOCTYPE"), `${ui.uri} is not an HTML page`);
      // A host finds the page from the tool's _meta.ui.resourceUri.
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t._meta?.ui?.resourceUri === ui.uri);
      expect(tool, `no tool names ${ui.uri} in _meta.ui.resourceUri`);
      return `${ui.uri} (${body.mimeType}, ${body.text.length} bytes), the page of ${tool.name}`;
    }],
    ["list", async () => {
      const { tools } = await client.listTools();
      expect(tools.some((t) => t.name === "everything__echo"), `everything__echo not among ${tools.length} tools`);
      return `${tools.length} tools`;
    }],
    ["call", async () => {
      const res = await sdk.call("everything__echo", { message: "interop" });
      expect(!res.isError && text(res).includes("interop"), `echo answered ${JSON.stringify(res)}`);
      return text(res);
    }],
    ["progress", async () => {
      let n = 0;
      const res = await sdk.call("everything__trigger-long-running-operation", { duration: 1, steps: 3 },
        { onprogress: () => { n++; } });
      expect(!res.isError, `long operation failed: ${text(res)}`);
      expect(n > 0, "no progress notification arrived");
      return `${n} progress notifications`;
    }],
    ["cancel", async () => {
      const abort = new AbortController();
      let n = 0;
      const call = sdk.call("everything__trigger-long-running-operation", { duration: 60, steps: 120 },
        { onprogress: () => { n++; }, signal: abort.signal });
      const outcome = call.then(() => "result", (err) => `rejected: ${err.message}`);
      await Promise.race([eventually(() => n > 0, "progress"), outcome]);
      abort.abort("interop cancels");
      const got = await outcome;
      expect(got !== "result", "the cancelled call returned a result");
      const after = await sdk.call("everything__echo", { message: "after cancel" });
      expect(text(after).includes("after cancel"), "the client is unusable after cancelling");
      return got;
    }],
    ["resources", async () => {
      const { resources } = await client.listResources();
      const doc = resources.find((r) => r.uri.startsWith("demo://resource/static/document/"));
      expect(doc, `no server-everything document among ${resources.length} resources`);
      const read = await client.readResource({ uri: doc.uri });
      expect(read.contents?.length > 0, `${doc.uri} read empty`);
      return `${resources.length} resources, read ${doc.uri}`;
    }],
    ["prompts", async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.some((p) => p.name === "everything__simple-prompt"), `everything__simple-prompt not among ${prompts.length}`);
      const got = await client.getPrompt({ name: "everything__simple-prompt" });
      expect(got.messages?.length > 0, "simple-prompt has no messages");
      return `${prompts.length} prompts, simple-prompt has ${got.messages.length} messages`;
    }],
    ["completion", async () => {
      const res = await client.complete({ ref: { type: "ref/prompt", name: "everything__completable-prompt" },
        argument: { name: "department", value: "Eng" } });
      expect(res.completion?.values?.includes("Engineering"), `completion ${JSON.stringify(res.completion)}`);
      return res.completion.values.join(", ");
    }],
    ["sampling", async () => {
      const res = await sdk.call("everything__trigger-sampling-request", { prompt: "say something", maxTokens: 5 });
      expect(!res.isError && text(res).includes(SAMPLED), `sampling tool answered ${JSON.stringify(res)}`);
      return "the client's sampled text came back";
    }],
    ["elicitation", async () => {
      const res = await sdk.call("everything__trigger-elicitation-request", {});
      expect(!res.isError && text(res).includes(ELICITED), `elicitation tool answered ${JSON.stringify(res)}`);
      return "the client's elicited answer came back";
    }],
    // A tool server-everything runs only as a task, which asks the client
    // on the way: toolhub runs it as a task on the server.
    ["task_tool", async () => {
      const res = await sdk.call("everything__simulate-research-query", { topic: "python", ambiguous: true });
      expect(!res.isError && text(res).includes(RESEARCH), `task-only tool answered ${JSON.stringify(res)}`);
      return "the task-only tool answered with the client's choice";
    }],
    ["roots", async () => {
      const res = await sdk.call("everything__get-roots-list", {});
      expect(!res.isError && text(res).includes(ROOT_URI), `get-roots-list answered ${JSON.stringify(res)}`);
      return "the downstream saw the client's root";
    }],
    ["ping", async () => {
      await client.ping();
      return "pong";
    }],
    ["setLevel", async () => {
      await client.setLoggingLevel("warning");
      return "warning";
    }],
    // Last: the config gains a server while the client listens.
    ["list_changed", async () => {
      let changed = 0;
      await sdk.onToolsListChanged(() => { changed++; });
      writeFileSync(process.env.INTEROP_CONFIG, process.env.INTEROP_CONFIG_CHANGED);
      await eventually(() => changed > 0, "list_changed");
      const { tools } = await client.listTools();
      const added = tools.filter((t) => t.name.startsWith("memory__"));
      expect(added.length > 0, `after list_changed no memory__ tool among ${tools.length}`);
      return `${changed} list_changed, then ${added.length} memory__ tools`;
    }],
  ];
  for (const [name, run] of checks) {
    try {
      report(name, true, await withTimeout(run(), checkTimeoutMs, name));
    } catch (err) {
      report(name, false, err?.stack ?? err);
    }
  }
}
