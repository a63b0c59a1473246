/**
 * A symbol as each language writes it, in the spelling qualified names are stored in: members and
 * modules joined by dots. Agents copy names from code, docs, stack traces and compiler errors, so
 * `ActiveRecord::Persistence#save` (Ruby), `App\Service\Orders::place` (PHP), `geo::Shape::count`
 * (C++), `net/http.(*Server).Serve` (Go), `Foo.prototype.bar` (JavaScript), `List<T>.add(int)`
 * and `save()` all name something we hold as `A.B.c`, or as `B.c` in a file that the path before it
 * names (see `moduleFit`).
 */
export function dottedSpelling(text: string): string {
  let t = text.trim();
  // A call's or signature's parentheses (`save()`, `add(int)`, Swift's `move(to:)`); not C++'s `operator()`.
  t = t.replace(/(?<!operator)\([^()]*\)$/, "");
  // Go method expressions: `(*Server).Serve`, `(Server).Serve`, `net/http.(*Server).Serve`.
  t = t.replace(/(^|[./])\(\*?([^()\s]+)\)(?=\.)/, "$1$2");
  // Rust's qualified paths: `<Mutex<T>>::lock`, `<Vec<T> as Extend<T>>::extend` name the type's method.
  if (t.startsWith("<")) t = typeOfQualifiedPath(t);
  // Type arguments, innermost first: `Map<K, List<V>>.get`.
  for (let before = ""; before !== t;) {
    before = t;
    t = t.replace(/<[^<>]*>/g, "");
  }
  return t
    .replace(/::|#|->|[\\/]/g, ".")
    .replace(/\.prototype\./g, ".")
    .replace(/^\.+/, "");
}

/** `<T as Trait>::rest` → `T::rest`; the text as it is when its brackets do not close. */
function typeOfQualifiedPath(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "<") depth++;
    else if (text[i] === ">" && --depth === 0)
      return text.slice(1, i).replace(/\s+as\s+[\s\S]*$/, "") + text.slice(i + 1);
  }
  return text;
}

/** A package or folder name as a crate or module spells it: `tokio-util` is `tokio_util`. */
const crateName = (name: string) => name.toLowerCase().replace(/-/g, "_");

/** Leading path words that name where a path starts, not a module (Rust's `crate::`, `self::`, `super::`). */
const PATH_ROOTS = new Set(["crate", "self", "super"]);

/**
 * How well a module path (`django.db.models.query`, `net.http`, `tokio.runtime`) names the file a
 * declaration is in, lower is better: 1, the file (without its ending) or its folder ends with it (a
 * Python module, a Go package's folder); 2, its words come in order among the path's; 3, it is the
 * file's package or namespace, or ends with it or it with the module (Java, Kotlin, C#, PHP:
 * `java.util`; Go's `http` for `net.http`); 4 and up, its last words end the file or folder, or come
 * in order in its path, and the first ones are not in it, as a Rust crate's name, a Go module's
 * domain or a PHP root namespace often are not (`tokio.runtime` for `src/runtime/builder.rs`,
 * `tokio.net` for `src/net/tcp/stream.rs`, re-exported), one more for each word left over.
 * Infinity when nothing fits.
 */
export function moduleFit(
  module: string,
  file: string,
  filePackage: () => string | null,
  rootNames: readonly string[] = [],
): number {
  const all = module.split(".").filter((w) => w && !PATH_ROOTS.has(w));
  // The project's or the crate's own name heads a path written from outside it (`tokio::spawn`, its
  // crate root): it names the root, not a folder.
  const head = all[0] ? crateName(all[0]) : null;
  const words = head && rootNames.some((n) => crateName(n) === head) ? all.slice(1) : all;
  if (!words.length) return 2;
  const slash = file.lastIndexOf("/");
  const folder = slash >= 0 ? file.slice(0, slash) : "";
  const stem = file.replace(/\.[^./]+$/, "");
  const ends = (from: number) => {
    const path = words.slice(from).join("/");
    return [stem, folder].some((p) => p === path || p.endsWith(`/${path}`));
  };
  const parts = stem.toLowerCase().split(/[/.]/);
  const inOrder = (from: number) => {
    let at = 0;
    for (let i = from; i < words.length; i++) {
      at = parts.indexOf(words[i]!.toLowerCase(), at) + 1;
      if (!at) return false;
    }
    return true;
  };
  if (ends(0)) return 1;
  if (inOrder(0)) return 2;
  const pkg = filePackage();
  const dotted = words.join(".");
  if (pkg && (pkg === dotted || pkg.endsWith(`.${dotted}`) || dotted.endsWith(`.${pkg}`))) return 3;
  for (let from = 1; from < words.length; from++) if (ends(from) || inOrder(from)) return 3 + from;
  return Infinity;
}
