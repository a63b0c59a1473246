/**
 * The stale-index banner (spec, "The banner"): it leads a response that quotes current bytes of files
 * changed since the last index sync, and only such a response, so that everything it does not list
 * can be trusted.
 */
export function staleBanner(drifted: readonly string[]): string {
  if (!drifted.length) return "";
  return [
    "⚠️ Some files referenced below were edited since the last index sync — their codegraph entries may be stale:",
    ...drifted.map((p) => `  - ${p}`),
    "For accurate content of those specific files, Read them directly. The rest of this response is fresh.",
  ].join("\n");
}

/** `body`, led by the stale-index banner when `drifted` names any file. */
export function withStaleBanner(drifted: readonly string[], body: string): string {
  const banner = staleBanner(drifted);
  return banner ? `${banner}\n\n${body}` : body;
}
