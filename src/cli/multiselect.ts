import { emitKeypressEvents } from "node:readline";

export interface Choice {
  label: string;
  hint?: string;
  selected: boolean;
}

/**
 * A checkbox list on the terminal: arrows (or j/k) move, space toggles, `a` toggles all, enter
 * confirms. Resolves with the chosen indexes, or null when cancelled (esc, q, ctrl-c). Draws on
 * stderr, so stdout stays clean for what the command prints.
 */
export function multiselect(question: string, choices: Choice[]): Promise<number[] | null> {
  const input = process.stdin;
  const out = process.stderr;
  const items = choices.map((c) => ({ ...c }));
  let cursor = 0;
  let drawn = 0;
  const draw = () => {
    if (drawn) out.write(`\x1b[${drawn}A\x1b[J`);
    const lines = [
      `${question}  (↑/↓ move, space select, a all, enter confirm, esc cancel)`,
      ...items.map(
        (c, i) =>
          `${i === cursor ? "❯" : " "} ${c.selected ? "◉" : "◯"} ${c.label}${c.hint ? `  \x1b[2m${c.hint}\x1b[0m` : ""}`,
      ),
    ];
    out.write(`${lines.join("\n")}\n`);
    drawn = lines.length;
  };
  return new Promise((resolve) => {
    emitKeypressEvents(input);
    input.setRawMode(true);
    input.resume();
    const finish = (result: number[] | null) => {
      input.off("keypress", onKey);
      input.setRawMode(false);
      input.pause();
      resolve(result);
    };
    const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } = {}) => {
      if ((key.ctrl && key.name === "c") || key.name === "escape" || text === "q") return finish(null);
      if (key.name === "return" || key.name === "enter") {
        return finish(items.flatMap((c, i) => (c.selected ? [i] : [])));
      }
      if (key.name === "up" || text === "k") cursor = (cursor + items.length - 1) % items.length;
      else if (key.name === "down" || text === "j") cursor = (cursor + 1) % items.length;
      else if (key.name === "space" || text === " ") items[cursor]!.selected = !items[cursor]!.selected;
      else if (text === "a") {
        const all = items.every((c) => c.selected);
        for (const c of items) c.selected = !all;
      }
      draw();
    };
    input.on("keypress", onKey);
    draw();
  });
}
