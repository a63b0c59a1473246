export interface LineLimit {
  /** The longest line kept, in bytes, its newline not counted. */
  maxBytes: number;
  /**
   * Called once per longer line, as soon as it passes the limit (not when it ends: a client that sends
   * a huge line with no newline is told at once). The rest of that line, up to its newline, is dropped.
   */
  onTooLong: () => void;
}

/**
 * Call `onLine` for each line of a stream (the last one may lack its newline), and `onEnd` when it
 * ends. Blank lines are skipped and a trailing `\r` is removed.
 *
 * Each chunk is scanned once, for its own newlines only, and a line's pieces are joined once it ends:
 * appending to one string and searching it from the start again, as this once did, took 21 s for a
 * 50 MB line. With `limit`, a longer line stops being kept once it is past the limit, so what one
 * line can make this process hold is bounded too; without it, as on a socket from our own daemon,
 * every line is delivered whole.
 */
export function lines(
  stream: NodeJS.ReadableStream,
  onLine: (line: string) => void,
  onEnd?: () => void,
  limit?: LineLimit,
): void {
  let pieces: Buffer[] = [];
  let kept = 0;
  let overflowing = false;

  const take = (piece: Buffer) => {
    if (overflowing || piece.length === 0) return;
    if (limit && kept + piece.length > limit.maxBytes) {
      overflowing = true;
      pieces = [];
      kept = 0;
      limit.onTooLong();
      return;
    }
    pieces.push(piece);
    kept += piece.length;
  };
  const endLine = () => {
    if (overflowing) {
      overflowing = false;
      return;
    }
    // Joined as bytes, then decoded: a character split between two chunks comes out whole.
    const line = Buffer.concat(pieces, kept).toString("utf8").replace(/\r$/, "");
    pieces = [];
    kept = 0;
    if (line.trim()) onLine(line);
  };

  stream.on("data", (data: Buffer | string) => {
    const chunk = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      take(chunk.subarray(start, nl));
      endLine();
      start = nl + 1;
    }
    take(chunk.subarray(start));
  });
  stream.on("end", () => {
    // A last line without its newline (`printf '…' | codegraph serve --mcp`) is still a line.
    if (kept > 0 || overflowing) endLine();
    onEnd?.();
  });
}
