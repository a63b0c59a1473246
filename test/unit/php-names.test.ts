import { describe, expect, it } from "vitest";
import { requirePath, useClauses } from "../../src/extract/languages/php.js";

describe("PHP use clauses", () => {
  it("reads plain, aliased, leading-backslash and several clauses", () => {
    expect(useClauses("use App\\Model\\Order;")).toEqual([{ alias: "Order", absolute: "App\\Model\\Order" }]);
    expect(useClauses("use \\Psr\\Log\\LoggerInterface as Logger, Foo;")).toEqual([
      { alias: "Logger", absolute: "Psr\\Log\\LoggerInterface" },
      { alias: "Foo", absolute: "Foo" },
    ]);
  });

  it("reads grouped clauses under their prefix", () => {
    expect(useClauses("use App\\Model\\{Order, Sub\\Item as LineItem};")).toEqual([
      { alias: "Order", absolute: "App\\Model\\Order" },
      { alias: "LineItem", absolute: "App\\Model\\Sub\\Item" },
    ]);
  });

  it("reads `use function` and `use const`", () => {
    expect(useClauses("use function App\\Util\\format_price as price;")).toEqual([
      { alias: "price", absolute: "App\\Util\\format_price" },
    ]);
    expect(useClauses("use const App\\LIMIT;")).toEqual([{ alias: "LIMIT", absolute: "App\\LIMIT" }]);
  });
});

describe("PHP require paths", () => {
  it("reads literal paths and paths built from __DIR__ or __FILE__", () => {
    expect(requirePath("'lib/legacy.php'")).toBe("lib/legacy.php");
    expect(requirePath("__DIR__ . '/helpers.php'")).toBe("./helpers.php");
    expect(requirePath("dirname(__DIR__) . '/vendor/autoload.php'")).toBe("../vendor/autoload.php");
    expect(requirePath("dirname(__DIR__, 2) . '/boot.php'")).toBe("../../boot.php");
    expect(requirePath("dirname(__FILE__) . '/x.php'")).toBe("./x.php");
  });

  it("gives nothing for computed paths", () => {
    expect(requirePath("$dir . '/x.php'")).toBeNull();
    expect(requirePath('"{$base}/x.php"')).toBeNull();
  });
});
