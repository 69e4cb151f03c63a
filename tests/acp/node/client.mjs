// A second, independent ACP client for kesi-lsp's tests: the TypeScript SDK
// (@agentclientprotocol/sdk) drives `kesi-lsp acp` through one scenario and prints what it saw
// as one JSON line on stdout. Usage: node client.mjs <fix|cancel> <cwd> <agent command...>
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [scenario, cwd, command, ...args] = process.argv.slice(2);
const agentProcess = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(
  Writable.toWeb(agentProcess.stdin),
  Readable.toWeb(agentProcess.stdout),
);

const seen = { updates: [], asked: [], reads: [], writes: [], stops: [] };
let firstText;
const gotText = new Promise((resolve) => (firstText = resolve));

const app = acp
  .client({ name: "kesi-ts-test-client" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    seen.updates.push(params.update);
    if (params.update.sessionUpdate === "agent_message_chunk" && !params.update._meta) {
      firstText();
    }
  })
  .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
    seen.asked.push({ toolCallId: params.toolCall.toolCallId, options: params.options });
    const allow = params.options.find((option) => option.kind === "allow_once");
    return { outcome: { outcome: "selected", optionId: allow.optionId } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
    seen.reads.push(params.path);
    return { content: await readFile(params.path, "utf8") };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
    seen.writes.push(params.path);
    await writeFile(params.path, params.content, "utf8");
    return {};
  });

const text = (said) => [{ type: "text", text: said }];

try {
  await app.connectWith(stream, async (agent) => {
    const init = await agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: "kesi-ts-test-client", version: "1.0.0" },
    });
    seen.protocolVersion = init.protocolVersion;
    seen.promptCapabilities = init.agentCapabilities.promptCapabilities;
    const { sessionId } = await agent.request(acp.methods.agent.session.new, {
      cwd,
      mcpServers: [],
    });
    if (scenario === "fix") {
      const done = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: text("test_add fails: assert -1 == 5. Fix it."),
      });
      seen.stops.push(done.stopReason);
    } else if (scenario === "cancel") {
      const pending = agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: text("think"),
      });
      await gotText;
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
      seen.stops.push((await pending).stopReason);
      const next = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: text("next task"),
      });
      seen.stops.push(next.stopReason);
    } else {
      throw new Error(`unknown scenario ${scenario}`);
    }
  });
  process.stdout.write(JSON.stringify(seen) + "\n");
} catch (error) {
  process.stdout.write(JSON.stringify({ error: String(error?.message ?? error) }) + "\n");
  process.exitCode = 1;
} finally {
  agentProcess.stdin.end();
}
