import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha1Js, sha256Js } from "../../src/core/sha-js.js";
import { sha256, stableId } from "../../src/core/hash.js";

const native = (algorithm: string, data: Uint8Array | string) => createHash(algorithm).update(data).digest("hex");

describe("SHA-1 and SHA-256 in JavaScript", () => {
  // Every length around the padding's edges (55, 56, 63, 64 bytes and their multiples), then larger.
  const lengths = [...Array.from({ length: 200 }, (_, i) => i), 1000, 4095, 65_536, 1_000_003];

  it("give node:crypto's digests for every length", () => {
    for (const n of lengths) {
      const data = randomBytes(n);
      expect(sha256Js(data), `sha256 of ${n} bytes`).toBe(native("sha256", data));
      expect(sha1Js(data), `sha1 of ${n} bytes`).toBe(native("sha1", data));
    }
  });

  it("give the known digests of the standard's examples", () => {
    const abc = new TextEncoder().encode("abc");
    expect(sha256Js(abc)).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha1Js(abc)).toBe("a9993e364706816aba3e25717850c26c9cd0d89d");
  });
});

describe("hash.ts", () => {
  it("gives the same digests before and after it switches to node:crypto", () => {
    // Ids first (short texts, in JavaScript while little is hashed), then 40 files of 2 KiB: the first
    // three are hashed in JavaScript (hash.ts switches past 8 KiB), the rest natively.
    for (const name of ["QuerySet", "naïve_ünïcode", "日本語", "emoji 🎉"]) {
      expect(stableId("a/b.py", "class", name, 0)).toBe(native("sha1", `a/b.py\0class\0${name}\0${0}`).slice(0, 16));
    }
    for (let i = 0; i < 40; i++) {
      const data = randomBytes(2048);
      expect(sha256(data)).toBe(native("sha256", data));
    }
    expect(stableId("a/b.py", "class", "QuerySet", 1)).toBe(
      native("sha1", "a/b.py\0class\0QuerySet\0" + "1").slice(0, 16),
    );
  });
});
