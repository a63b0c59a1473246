import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJson, tempRepo } from "../helpers/cli.js";

// Flow-typed JavaScript (React Native's style): the JavaScript grammar reads the annotations as
// syntax errors; such a file is parsed with the TSX grammar, and stays JavaScript.
const SERVICE = `/**
 * @flow strict
 */
export type Options = {| retries: number |};

export class Service {
  run(options: Options): ?string {
    return null;
  }
}
`;
const CLIENT = `// @flow
import {Service} from './service';

export function start(service: Service, count: number): void {
  const result: ?string = service.run({retries: count});
}
`;
// The same code without the pragma is read by the JavaScript grammar, as before.
const PLAIN = `export function plain(service: Service): void {
  service.run();
}
`;

describe("Flow-typed JavaScript", () => {
  let repo: { dir: string; cleanup: () => void };
  const p = () => ["-p", repo.dir];
  beforeAll(async () => {
    repo = tempRepo();
    writeFileSync(join(repo.dir, "service.js"), SERVICE);
    writeFileSync(join(repo.dir, "client.js"), CLIENT);
    writeFileSync(join(repo.dir, "plain.js"), PLAIN);
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  it("parses @flow files without syntax errors, as JavaScript, and resolves calls through their types", async () => {
    const status = await runJson<{ languages: Record<string, number> }>(["status", ...p()]);
    expect(status.languages).toEqual({ javascript: 3 });
    const files = await runJson<{ path: string; syntaxErrors: number }[]>(["files", "--list", ...p()]);
    const errors = Object.fromEntries(files.map((f) => [f.path, f.syntaxErrors]));
    expect(errors["service.js"]).toBe(0);
    expect(errors["client.js"]).toBe(0);
    expect(errors["plain.js"]).toBeGreaterThan(0);
    const callers = await runJson<{ groups: { rows: { symbol: { qualifiedName: string } }[] }[] }>([
      "callers",
      "Service.run",
      ...p(),
    ]);
    expect(callers.groups[0]!.rows.map((r) => r.symbol.qualifiedName)).toEqual(["start"]);
  });
});
