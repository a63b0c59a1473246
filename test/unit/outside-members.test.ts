import { describe, expect, it } from "vitest";
import { relations } from "../../src/query/callers.js";
import { impact } from "../../src/query/impact.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// Go, Rust and C++ write a type's methods outside its body; they are still the type's members: their
// callers and callees are the type's, and their calls of each other are not.
const GO_MOD = "module example.com/shop\n";
const GO_CART = `package cart

type Cart struct {
	items []string
}

func (c *Cart) Add(item string) {
	c.items = append(c.items, item)
	c.log(item)
}
`;
const GO_LOG = `package cart

import "example.com/shop/audit"

func (c *Cart) log(item string) {
	audit.Record(item)
}
`;
const GO_AUDIT = `package audit

func Record(item string) {}
`;
const GO_OTHER = `package other

// Another package's Cart: its methods are not the first one's.
type Cart struct{}

func (c *Cart) Add(item string) {}
`;
const GO_MAIN = `package main

import "example.com/shop/cart"

func main() {
	c := &cart.Cart{}
	c.Add("apple")
}
`;

const CPP_HEADER = `namespace shop {
class Till {
 public:
  void Open();
  void Count();
};
}
`;
const CPP_SOURCE = `#include "till.h"

namespace shop {
void Till::Open() {
  Count();
}
void Till::Count() {}
}

void StartDay() {
  shop::Till till;
  till.Open();
}
`;

const RUST_A = `pub struct Error {}

impl Error {
    pub fn describe(&self) -> u8 { self.code() }
    fn code(&self) -> u8 { 1 }
}
`;
const RUST_B = `pub struct Error {}

impl Error {
    pub fn describe(&self) -> u8 { 2 }
}

pub fn report(e: Error) -> u8 { e.describe() }
`;

const project = useIndexedProject("outside-members", {
  files: {
    "go.mod": GO_MOD,
    "cart/cart.go": GO_CART,
    "cart/log.go": GO_LOG,
    "audit/audit.go": GO_AUDIT,
    "other/cart.go": GO_OTHER,
    "main.go": GO_MAIN,
    "cpp/till.h": CPP_HEADER,
    "cpp/till.cpp": CPP_SOURCE,
    "src/a.rs": RUST_A,
    "src/b.rs": RUST_B,
  },
});

const rows = (name: string, direction: "callers" | "callees", file?: string) =>
  relations(project.db, name, direction, { file })
    .groups.flatMap((g) => g.rows.map((r) => `${r.symbol.qualifiedName} ${r.symbol.file}:${r.line}`))
    .sort();

describe("a type whose methods are written outside its body", () => {
  it("(Go) has its methods' callees, across the files of its package, and not its methods' calls of each other", () => {
    expect(rows("Cart", "callees", "cart/cart.go")).toEqual(["Record audit/audit.go:6"]);
    expect(rows("Cart", "callers", "cart/cart.go")).toEqual(["main main.go:6", "main main.go:7"]);
  });

  it("(Go) does not take another package's type of the same name", () => {
    expect(rows("Cart", "callers", "other/cart.go")).toEqual([]);
  });

  it("(C++) has the callers and callees of the methods a source file defines", () => {
    expect(rows("Till", "callers", "cpp/till.h")).toEqual(["StartDay cpp/till.cpp:12"]);
    expect(rows("Till", "callees", "cpp/till.h")).toEqual([]);
  });

  it("(Rust) keeps to its own file when another module has a type of the same name", () => {
    expect(rows("Error", "callees", "src/a.rs")).toEqual([]);
    expect(rows("Error", "callers", "src/b.rs")).toEqual(["report src/b.rs:7"]);
    const blast = impact(project.db, "Error", { file: "src/b.rs" }).sections.flatMap((s) => s.hits);
    expect(blast.map((h) => h.symbol.qualifiedName)).toContain("report");
  });
});
