import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";

/**
 * react-native-windows' native modules mark members with macros alone on a line, in files with
 * Windows line breaks (the golden `cpp/macros.h` has Unix ones): the marks declare nothing.
 */
const MODULE = [
  "namespace ws {",
  'REACT_MODULE(Turbo, L"WebSocketModule")',
  "struct Turbo {",
  "  REACT_METHOD(createView)",
  "  void createView(double reactTag) noexcept;",
  "",
  '  REACT_METHOD(Close, L"close")',
  "  void Close(double code) noexcept;",
  "};",
  "}",
  "",
].join("\r\n");

describe("C++ member macros", () => {
  it("are no members, with Windows line breaks too", async () => {
    const result = await extractSource("cpp", MODULE, "Turbo.h");
    const names = result.symbols.map((s) => `${s.kind} ${s.qualifiedName}`);
    expect(names).toEqual(["namespace ws", "struct ws.Turbo", "method ws.Turbo.createView", "method ws.Turbo.Close"]);
  });
});
