import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";
import { languageForPath } from "../../src/extract/language.js";
import { annotate } from "./annotate.js";

/**
 * Golden extraction tests: every file under fixtures/<language>/ is extracted and rendered as annotated
 * source; the result must equal the `.golden` file beside it. `npm run golden:accept` rewrites them.
 */
const root = join(import.meta.dirname, "fixtures");
const accept = process.env.CODEGRAPH_ACCEPT_GOLDEN === "1";

for (const lang of readdirSync(root)) {
  describe(`golden extraction: ${lang}`, () => {
    const files = readdirSync(join(root, lang)).filter((f) => !f.endsWith(".golden"));
    for (const file of files) {
      it(file, async () => {
        const path = join(root, lang, file);
        const id = languageForPath(file);
        expect(id, `no language claims ${file}`).not.toBeNull();
        const source = readFileSync(path, "utf8");
        const actual = annotate(source, await extractSource(id!, source, file));
        const goldenPath = `${path}.golden`;
        if (accept || !existsSync(goldenPath)) {
          writeFileSync(goldenPath, actual);
          if (!accept) throw new Error(`wrote new golden ${goldenPath}: review it, then re-run`);
          return;
        }
        expect(actual).toBe(readFileSync(goldenPath, "utf8"));
      });
    }
  });
}
