import { describe, expect, it } from "vitest";
import { healthBanner } from "../../src/render/health-banner.js";

describe("auto-sync health banner", () => {
  it("says nothing while healthy", () => {
    expect(healthBanner({ state: "ok" })).toBeNull();
  });

  it("RECOVERING and DISABLED keep their fixed prefixes and carry the reason", () => {
    const recovering = healthBanner({ state: "recovering", since: "2026-01-01T00:00:00.000Z", reason: "locked" });
    expect(recovering).toMatch(/^⚠️ CodeGraph auto-sync is RECOVERING — locked;/);
    expect(recovering).toContain("retried every 30 s");
    const disabled = healthBanner({ state: "disabled", reason: "the OS file watch failed" });
    expect(disabled).toMatch(/^⚠️ CodeGraph auto-sync is DISABLED — the OS file watch failed\./);
    expect(disabled).toContain("`codegraph sync`");
  });
});
