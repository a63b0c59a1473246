import { CodegraphError } from "../../core/errors.js";
import { formatHttpAddress, parseHttpAddress, sameEndpoint } from "../../core/http-address.js";
import { processAlive } from "../../core/process-alive.js";
import { isCodegraphHttpServer, listHttpServers, unregisterHttpServer } from "../http-registry.js";
import { writeOut } from "../output.js";

/** How long `http stop` waits for the server to finish its requests and exit. */
const STOP_WAIT_MS = 15_000;

/** `codegraph http list`: the running HTTP servers, from the registry (dead entries are pruned). */
export function runHttpList(opts: { json?: boolean }): void {
  const servers = listHttpServers();
  if (opts.json) {
    writeOut(`${JSON.stringify({ servers }, null, 2)}\n`);
    return;
  }
  if (servers.length === 0) {
    writeOut("No codegraph HTTP servers are running. Start one with `codegraph serve --http --detach`.\n");
    return;
  }
  const rows = servers.map((s) => [
    s.addr,
    String(s.pid),
    s.project ?? "(any: calls name projectPath)",
    uptime(Date.now() - Date.parse(s.startedAt)),
  ]);
  const header = ["ADDRESS", "PID", "PROJECT", "UPTIME"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [header, ...rows]) {
    writeOut(`${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")}\n`);
  }
}

/** `codegraph http stop <host:port>`: SIGTERM to the registered server, after checking it is one. */
export async function runHttpStop(addrText: string, opts: { json?: boolean }): Promise<void> {
  const parsed = parseHttpAddress(addrText);
  if (!parsed) throw new CodegraphError("BAD_INPUT", `${addrText} is not <host>:<port>, e.g. 127.0.0.1:8111.`);
  const addr = formatHttpAddress(parsed);
  const servers = listHttpServers();
  const entry =
    servers.find((s) => s.addr === addr) ??
    servers.find((s) => {
      const registered = parseHttpAddress(s.addr);
      return registered !== null && sameEndpoint(registered, parsed);
    });
  if (!entry) {
    throw new CodegraphError(
      "NOT_FOUND",
      `No codegraph HTTP server is registered on ${addr}. \`codegraph http list\` shows the running ones.`,
    );
  }
  if (!processAlive(entry.pid) || !isCodegraphHttpServer(entry.pid)) {
    unregisterHttpServer(entry.pid);
    throw new CodegraphError(
      "NOT_FOUND",
      `pid ${entry.pid} is no longer a codegraph HTTP server; its entry is removed.`,
    );
  }
  process.kill(entry.pid, "SIGTERM");
  const deadline = Date.now() + STOP_WAIT_MS;
  while (processAlive(entry.pid)) {
    if (Date.now() > deadline) {
      throw new CodegraphError(
        "IO",
        `pid ${entry.pid} got SIGTERM but is still finishing; check again with \`codegraph http list\`.`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  unregisterHttpServer(entry.pid);
  if (opts.json) writeOut(`${JSON.stringify({ stopped: { addr, pid: entry.pid } })}\n`);
  else writeOut(`Stopped the codegraph HTTP server on ${addr} (pid ${entry.pid}).\n`);
}

function uptime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
