// The bin entry must be executable after tsc writes it; tsc does not set modes.
import { chmodSync } from "node:fs";
chmodSync(new URL("../dist/cli/main.js", import.meta.url), 0o755);
