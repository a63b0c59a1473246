import { spawn } from "node:child_process";
const [dir, nodaemon] = process.argv.slice(2);
const env = { ...process.env }; delete env.NODE_EXTRA_CA_CERTS; if (nodaemon) env.CODEGRAPH_NO_DAEMON = "1";
const t0 = performance.now();
const p = spawn("node", ["/work/main/dist/cli/main.js", "serve", "--mcp", "--path", dir], { env, stdio: ["pipe", "pipe", "pipe"] });
let buf = ""; let err = "";
p.stderr.on("data", (d) => (err += d));
p.stdout.on("data", (d) => { buf += d; if (buf.includes('"id":1')) { const t1 = performance.now(); p.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n" + JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "codegraph_search", arguments: { query: "QuerySet", limit: 1 } } }) + "\n"); buf = ""; p.stdout.removeAllListeners("data"); p.stdout.on("data", (d2) => { buf += d2; if (buf.includes('"id":2')) { console.log(`initialize ${(t1 - t0).toFixed(0)} ms, first search answered ${(performance.now() - t0).toFixed(0)} ms`); p.kill(); } }); } });
p.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }) + "\n");
