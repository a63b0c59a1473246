/** Where `serve --http` listens unless `--http-addr` says otherwise. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";
export const DEFAULT_HTTP_PORT = 8111;

export interface HttpAddress {
  host: string;
  port: number;
}

/** `host:port` (`[::1]:8111` for IPv6) as an address; null when it is not one. */
export function parseHttpAddress(text: string): HttpAddress | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  if (!m) return null;
  const port = Number(m[3]);
  if (!Number.isInteger(port) || port > 65535) return null;
  return { host: (m[1] ?? m[2])!, port };
}

/** The address as `host:port`, with IPv6 in brackets. */
export function formatHttpAddress(a: HttpAddress): string {
  return a.host.includes(":") ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Whether two addresses name the same listening socket: `localhost:8111` is `127.0.0.1:8111`. */
export function sameEndpoint(a: HttpAddress, b: HttpAddress): boolean {
  if (a.port !== b.port) return false;
  const norm = (h: string) => h.toLowerCase().replace(/^\[|\]$/g, "");
  return norm(a.host) === norm(b.host) || (isLoopbackHost(a.host) && isLoopbackHost(b.host));
}
