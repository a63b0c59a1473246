import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";

// Crates gate APIs behind macros whose bodies are items (`cfg_rt! { pub fn spawn() {} }`); the
// grammar leaves such a body as tokens. It is parsed as items in place, and left alone when it is
// not items, or not at item level.

const symbols = async (source: string) => {
  const r = await extractSource("rust", source, "src/lib.rs");
  return {
    errors: r.syntaxErrors,
    names: r.symbols.filter((s) => s.kind !== "import").map((s) => `${s.qualifiedName}:${s.startLine}`),
    macroCalls: r.refs.filter((x) => x.name.endsWith("!")).map((x) => `${x.name}:${x.line}:${x.col}`),
  };
};

describe("Rust items in macro bodies", () => {
  it("are items of the file, of an impl, and of a body inside a body, at their own lines", async () => {
    const r = await symbols(`cfg_rt! {
    /// Spawns a task.
    pub fn spawn(job: u32) -> u32 { job }
}

pub struct Handle;

impl Handle {
    cfg_net! {
        pub fn connect(&self) {}
        cfg_unix! {
            pub fn pair() {}
        }
    }
}
`);
    expect(r.errors).toBe(0);
    expect(r.names).toEqual(["spawn:3", "Handle:6", "Handle.connect:10", "Handle.pair:12"]);
    expect(r.macroCalls).toEqual(["cfg_rt!:1:0", "cfg_net!:9:4", "cfg_unix!:11:8"]);
  });

  it("stay tokens when they do not parse as items, or are not at item level", async () => {
    const r = await symbols(`bitflags! {
    pub struct Flags: u32 {
        const A = 1;
    }
}
lazy_static! {
    static ref TABLE: Vec<u8> = vec![];
}
macro_rules! gate { ($($i:item)*) => { $($i)* } }
fn body() {
    gate! {
        fn hidden() {}
    }
}
`);
    expect(r.errors).toBe(0);
    // lazy_static's items are statics the grammar reads (`static ref`), so they are kept.
    expect(r.names).toEqual(["TABLE:7", "gate!:9", "body:10"]);
    // Unwrapped calls come first; the others as the tree has them.
    expect(r.macroCalls).toEqual(["lazy_static!:6:0", "bitflags!:1:0", "vec!:7:32", "gate!:11:4"]);
  });

  it("are found past strings, characters, lifetimes and comments holding braces", async () => {
    const r = await symbols(`const OPEN: char = '{';
const CLOSE: &str = "}\\"}";
const RAW: &str = r#"}"}"#;
/* a comment } with /* nested } */ braces */
// a line comment }
fn borrow<'a>(x: &'a str) -> &'a str { x }
feature! {
    #![cfg(unix)]
    pub fn gated() -> char { '}' }
}
`);
    expect(r.errors).toBe(0);
    expect(r.names).toEqual(["OPEN:1", "CLOSE:2", "RAW:3", "borrow:6", "gated:9"]);
  });
});
