import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";

/** How a definition written with a qualifier (`void a::X::f() {}`) is named, inside or outside its namespace. */
async function named(source: string, path = "x.cpp"): Promise<string[]> {
  const result = await extractSource("cpp", source, path);
  return result.symbols.filter((s) => s.kind !== "namespace").map((s) => `${s.kind} ${s.qualifiedName}`);
}

describe("C++ qualified definitions", () => {
  it("name their namespace once when they spell it out inside it", async () => {
    const source = [
      "namespace Microsoft::ReactNative {",
      "void Microsoft::ReactNative::ViewManager::createShadow() {}",
      "void ReactNative::ViewManager::drop() {}",
      "void ViewManager::update() {}",
      "}",
    ].join("\n");
    expect(await named(source)).toEqual([
      "method Microsoft.ReactNative.ViewManager.createShadow",
      "method Microsoft.ReactNative.ViewManager.drop",
      "method Microsoft.ReactNative.ViewManager.update",
    ]);
  });

  it("are methods of a class named after a namespace, and functions of a namespace", async () => {
    const source = [
      "namespace ns { class Shape; namespace detail { void helper(); } }",
      "void ns::Shape::area() {}",
      "void ns::detail::helper() {}",
    ].join("\n");
    expect(await named(source)).toEqual(["method ns.Shape.area", "function ns.detail.helper"]);
  });

  it("keep their namespace behind an export macro before a qualified return type", async () => {
    const source = [
      "namespace Mso::React {",
      "LIBLET_PUBLICAPI Mso::CntPtr<IJSBundle> MakeFileJSBundle(std::string &&path) noexcept {",
      "  return nullptr;",
      "}",
      "LIBLET_PUBLICAPI std::vector<int> const &Versions() noexcept;",
      "}",
    ].join("\n");
    expect(await named(source, "x.h")).toEqual(["function Mso.React.MakeFileJSBundle", "function Mso.React.Versions"]);
  });
});

describe("C and C++ calling conventions", () => {
  it("are neither names nor qualifiers", async () => {
    const source = [
      "namespace impl {",
      "HRESULT __stdcall Provider::Navigate(int direction) { return 0; }",
      "int32_t NAPI_CDECL addInspectorPage(const char *title) noexcept;",
      "struct Runner {",
      "  static void NAPI_CDECL PostTask(void *task) {}",
      "};",
      "}",
    ].join("\n");
    expect(await named(source, "x.h")).toEqual([
      "method impl.Provider.Navigate",
      "function impl.addInspectorPage",
      "struct impl.Runner",
      "method impl.Runner.PostTask",
    ]);
  });

  it("leave an upper-case type after a specifier as the type", async () => {
    const source = "static BOOL CALLBACK OnClose(HWND w);\nconst BYTE tables(void);\n";
    const result = await extractSource("cpp", source, "x.h");
    const returns = result.localTypes.filter((t) => t.name === "()").map((t) => t.typeName);
    expect(result.symbols.map((s) => `${s.kind} ${s.qualifiedName}`)).toEqual(["function OnClose", "function tables"]);
    expect(returns).toEqual(["BOOL", "BYTE"]);
  });
});

describe("C export macros", () => {
  it("are blanked before a type and a calling convention", async () => {
    const source = "NAPI_EXTERN napi_status NAPI_CDECL napi_create_object(napi_env env, napi_value *result);\n";
    const result = await extractSource("c", source, "js_native_api.h");
    expect(result.symbols.map((s) => `${s.kind} ${s.name}`)).toEqual(["function napi_create_object"]);
    expect(result.syntaxErrors).toBe(0);
  });

  it("before an upper-case type are blanked, and the type kept", async () => {
    const source = "extern _X_EXPORT RESTYPE CreateNewResourceClass(void);\nLRESULT CALLBACK WndProc(HWND w);\n";
    const result = await extractSource("cpp", source, "resource.h");
    expect(result.symbols.map((s) => `${s.kind} ${s.name}`)).toEqual([
      "function CreateNewResourceClass",
      "function WndProc",
    ]);
    expect(result.localTypes.filter((t) => t.name === "()").map((t) => t.typeName)).toEqual(["RESTYPE", "LRESULT"]);
  });
});
