// Reference call graph from the TypeScript compiler's type checker.
//
// For every call site in the project's .ts/.tsx files (CallExpression, NewExpression, `super(...)`,
// tagged templates, decorator calls) we ask the checker which declaration it resolves to and
// classify the site:
//   project    - a declaration in a project file that a code graph can hold (function, method,
//                constructor, class, function-valued variable/property, interface member, ...)
//   local      - the checker resolved the callee to a value without a definition of its own: a
//                parameter, a local variable, a destructured binding (`callback()`, `fn()`), or an
//                anonymous function; it is "resolved", but no graph node is the right answer
//   elsewhere  - a declaration outside the project (lib.*.d.ts, an external package)
//   unresolved - nothing (unresolved import, `any`, ...)
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire("/work/main/");
export const ts = require("typescript");

const SKIP_DIRS = new Set(["node_modules", ".git", ".codegraph", "dist", "build", "coverage"]);

/** All .ts/.tsx files under root (absolute paths), skipping dependency/output folders. */
export function listTsFiles(root) {
  const out = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) walk(p);
      } else if (e.isFile() && /\.(ts|tsx|mts|cts)$/.test(e.name)) {
        out.push(p);
      }
    }
  };
  walk(root);
  return out.sort();
}

/**
 * Optional `paths` for monorepos whose package.json files were stripped: a bare import
 * `@scope/name` (or `name`) maps to `packages/name/src/index.ts(x)` when that file exists.
 */
function workspacePaths(root, files) {
  const specs = new Set();
  const re = /\bfrom\s+['"]([^'"./][^'"]*)['"]/g;
  for (const f of files) {
    const text = fs.readFileSync(f, "utf8");
    for (const m of text.matchAll(re)) specs.add(m[1]);
  }
  const paths = {};
  for (const spec of specs) {
    const last = spec.split("/").pop();
    for (const dir of ["packages", "libs", "modules"]) {
      for (const idx of ["src/index.ts", "src/index.tsx", "index.ts"]) {
        const rel = `${dir}/${last}/${idx}`;
        if (fs.existsSync(path.join(root, rel))) {
          paths[spec] ??= [rel];
        }
      }
    }
  }
  return paths;
}

const lineOf = (node) => {
  const sf = node.getSourceFile();
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
};

/** Unwrap `(x)`, `x!`, `x as T`, `<T>x`, `x satisfies T` around a callee. */
function unwrap(expr) {
  for (;;) {
    if (
      ts.isParenthesizedExpression(expr) ||
      ts.isNonNullExpression(expr) ||
      ts.isAsExpression(expr) ||
      ts.isTypeAssertionExpression(expr) ||
      (ts.isSatisfiesExpression && ts.isSatisfiesExpression(expr))
    ) {
      expr = expr.expression;
    } else return expr;
  }
}

/** The token that names the callee (`foo` in `a.b.foo()`), or null when there is none. */
function calleeNameNode(expr) {
  expr = unwrap(expr);
  if (ts.isIdentifier(expr) || ts.isPrivateIdentifier(expr)) return expr;
  if (ts.isPropertyAccessExpression(expr)) return expr.name;
  if (ts.isElementAccessExpression(expr) && ts.isStringLiteralLike(expr.argumentExpression))
    return expr.argumentExpression;
  if (expr.kind === ts.SyntaxKind.SuperKeyword) return expr;
  if (ts.isExpressionWithTypeArguments?.(expr)) return calleeNameNode(expr.expression);
  return null;
}

function nameText(n) {
  if (!n) return null;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
  if (ts.isStringLiteralLike(n) || ts.isNumericLiteral(n)) return n.text;
  if (ts.isComputedPropertyName(n)) return `[${n.expression.getText()}]`;
  return n.getText();
}

const isFunctionLikeValue = (n) => ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isClassExpression(n);

/** Signatures that come from a type rather than a definition: `(x) => void`, `{ (): T }`, `new () => T`. */
const isTypeSignature = (n) =>
  ts.isFunctionTypeNode(n) ||
  ts.isConstructorTypeNode(n) ||
  ts.isCallSignatureDeclaration(n) ||
  ts.isConstructSignatureDeclaration(n) ||
  ts.isIndexSignatureDeclaration(n) ||
  ts.isJSDocSignature?.(n) ||
  ts.isJSDocFunctionType?.(n);

/** A variable declared at module (or namespace) level, as opposed to a local. */
function isModuleLevel(decl) {
  let n = decl.parent; // VariableDeclarationList
  if (n && ts.isVariableDeclarationList(n)) n = n.parent; // VariableStatement
  const container = n?.parent;
  return !!container && (ts.isSourceFile(container) || ts.isModuleBlock(container));
}

export function buildReference(root, { mapWorkspaces = false, log = () => {} } = {}) {
  root = path.resolve(root);
  const files = listTsFiles(root);
  if (files.length === 0) throw new Error(`no .ts/.tsx files under ${root}`);
  const options = {
    allowJs: false,
    jsx: ts.JsxEmit.ReactJSX,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    noEmit: true,
    strict: false,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    experimentalDecorators: true,
    types: [],
    baseUrl: root,
  };
  if (mapWorkspaces) {
    options.paths = workspacePaths(root, files);
    log(`workspace paths: ${JSON.stringify(options.paths)}`);
  } else {
    delete options.baseUrl;
  }
  const t0 = Date.now();
  const program = ts.createProgram({ rootNames: files, options });
  const checker = program.getTypeChecker();
  const projectFile = (fileName) => {
    const abs = path.resolve(fileName);
    return abs.startsWith(root + path.sep) && !abs.includes(`${path.sep}node_modules${path.sep}`);
  };
  const rel = (fileName) => path.relative(root, path.resolve(fileName)).split(path.sep).join("/");

  /** Describe one declaration as an acceptable graph target. */
  const targetOf = (decl, extra = {}) => {
    const sf = decl.getSourceFile();
    let name = nameText(decl.name);
    let at = decl.name ?? decl;
    let kind = ts.SyntaxKind[decl.kind];
    if (ts.isConstructorDeclaration(decl)) {
      name = "constructor";
      at = decl.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword) ?? decl;
    } else if (isFunctionLikeValue(decl) && !decl.name) {
      // `const f = () => ...`, `{ f: () => ... }`, `f = function () {}` take their holder's name.
      const p = holderOf(decl);
      if (p && (ts.isVariableDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertyAssignment(p)) && p.name) {
        name = nameText(p.name);
        at = p.name;
        kind = `${ts.SyntaxKind[p.kind]}(${kind})`;
      } else if (p && ts.isExportAssignment(p)) {
        name = "default";
      }
    }
    return {
      file: rel(sf.fileName),
      name,
      line: lineOf(at),
      startLine: lineOf(decl),
      declKind: kind,
      ...extra,
    };
  };

  /** What holds a function value: `const f = (() => ...) as F` is held by the declaration of f. */
  const holderOf = (fn) => {
    let p = fn.parent;
    while (
      p &&
      (ts.isParenthesizedExpression(p) ||
        ts.isAsExpression(p) ||
        ts.isTypeAssertionExpression(p) ||
        ts.isNonNullExpression(p) ||
        (ts.isSatisfiesExpression && ts.isSatisfiesExpression(p)))
    )
      p = p.parent;
    return p;
  };

  /** Overload signatures and implementation of one function/method: any of them names the callee. */
  const overloadSiblings = (decl) => {
    if (!(
      ts.isFunctionDeclaration(decl) ||
      ts.isMethodDeclaration(decl) ||
      ts.isMethodSignature(decl) ||
      ts.isConstructorDeclaration(decl)
    ))
      return [];
    const sym = decl.symbol;
    return (sym?.declarations ?? []).filter(
      (d) => d !== decl && d.kind === decl.kind && d.getSourceFile() === decl.getSourceFile(),
    );
  };

  /** A function overload without a body stands for its implementation (graphs index that one). */
  const implementationOf = (decl) => {
    if (
      (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl) || ts.isConstructorDeclaration(decl)) &&
      !decl.body &&
      !decl.getSourceFile().isDeclarationFile
    ) {
      const sym = decl.symbol;
      const impl = sym?.declarations?.find((d) => d.kind === decl.kind && d.body);
      if (impl) return impl;
    }
    return decl;
  };

  const followAlias = (sym) => {
    if (sym && sym.flags & ts.SymbolFlags.Alias) {
      try {
        return checker.getAliasedSymbol(sym);
      } catch {
        return sym;
      }
    }
    return sym;
  };

  /** Classify a list of declarations: project targets, or local / elsewhere. */
  const classify = (decls, how) => {
    const targets = [];
    let elsewhere = null;
    let local = null;
    for (let d of decls) {
      d = implementationOf(d);
      const file = d.getSourceFile().fileName;
      if (!projectFile(file)) {
        elsewhere ??= {
          file: path.basename(file),
          name: nameText(d.name),
          declKind: ts.SyntaxKind[d.kind],
        };
        continue;
      }
      const holder = isFunctionLikeValue(d) && !d.name ? holderOf(d) : d;
      const namedHolder =
        holder !== d
          ? holder &&
            (ts.isVariableDeclaration(holder) ||
              ts.isPropertyDeclaration(holder) ||
              ts.isPropertyAssignment(holder) ||
              ts.isExportAssignment(holder))
          : true;
      const holderIsFunction =
        holder !== d || (ts.isVariableDeclaration(d) && d.initializer && isFunctionLikeValue(unwrap(d.initializer)));
      if (
        ts.isParameter(d) ||
        ts.isBindingElement(d) ||
        !namedHolder ||
        (ts.isVariableDeclaration(d) && !isModuleLevel(d) && !holderIsFunction)
      ) {
        local ??= targetOf(d);
        continue;
      }
      // A function-valued local (`const f = () => ...` inside a body) is a real named definition;
      // keep it but mark it so misses can be broken down.
      const localFn = ts.isVariableDeclaration(holder) && !isModuleLevel(holder);
      targets.push(targetOf(d, localFn ? { how, localFn: true } : { how }));
      for (const o of overloadSiblings(d)) targets.push(targetOf(o, { how, overload: true }));
    }
    if (targets.length) return { status: "project", targets };
    if (local) return { status: "local", targets: [], local };
    if (elsewhere) return { status: "elsewhere", targets: [], elsewhere };
    return null;
  };

  /** Declarations of a class symbol: the class and its own constructor(s) with a body. */
  const classTargets = (cls, how) => {
    const out = [];
    const decl = cls.valueDeclaration ?? cls.declarations?.find((d) => ts.isClassLike(d));
    if (!decl || !ts.isClassLike(decl)) return out;
    if (!projectFile(decl.getSourceFile().fileName)) return null;
    const className = nameText(decl.name) ?? "default";
    out.push(targetOf(decl, { how, className }));
    for (const m of decl.members) {
      if (ts.isConstructorDeclaration(m)) {
        out.push(targetOf(m, { how, className, classLine: lineOf(decl.name ?? decl) }));
      }
    }
    return out;
  };

  /** How the callee is reached, for breaking misses down: `f()`, `this.m()`, `param.m()`, ... */
  const calleeShape = (calleeExpr, siteKind) => {
    if (siteKind === "super") return "super(...)";
    const e = unwrap(calleeExpr);
    const pre = siteKind === "new" ? "new " : "";
    if (ts.isIdentifier(e)) return `${pre}f()`;
    let recv;
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) recv = unwrap(e.expression);
    else return `${pre}(expression)()`;
    if (recv.kind === ts.SyntaxKind.ThisKeyword) return `${pre}this.m()`;
    if (recv.kind === ts.SyntaxKind.SuperKeyword) return `${pre}super.m()`;
    if (ts.isPropertyAccessExpression(recv) && unwrap(recv.expression).kind === ts.SyntaxKind.ThisKeyword)
      return `${pre}this.field.m()`;
    if (ts.isIdentifier(recv)) {
      let sym;
      try {
        sym = checker.getSymbolAtLocation(recv);
      } catch {
        sym = undefined;
      }
      const d = sym?.valueDeclaration ?? sym?.declarations?.[0];
      if (!d) return `${pre}x.m() (unknown x)`;
      if (sym.flags & ts.SymbolFlags.Alias) return `${pre}imported.m()`;
      if (ts.isParameter(d)) return `${pre}param.m()`;
      if (ts.isClassDeclaration(d) || ts.isEnumDeclaration(d) || ts.isModuleDeclaration(d)) return `${pre}Type.m()`;
      if (ts.isVariableDeclaration(d) || ts.isBindingElement(d))
        return ts.isVariableDeclaration(d) && isModuleLevel(d) ? `${pre}moduleVar.m()` : `${pre}local.m()`;
      return `${pre}x.m()`;
    }
    if (ts.isCallExpression(recv) || ts.isNewExpression(recv)) return `${pre}call().m()`;
    if (ts.isPropertyAccessExpression(recv) || ts.isElementAccessExpression(recv)) return `${pre}a.b.m()`;
    return `${pre}(expression).m()`;
  };

  const sites = [];
  const counts = { files: 0, sites: 0 };

  const visitSite = (node, sf) => {
    let calleeExpr;
    let siteKind;
    if (ts.isCallExpression(node)) {
      calleeExpr = node.expression;
      if (calleeExpr.kind === ts.SyntaxKind.ImportKeyword) return;
      siteKind = calleeExpr.kind === ts.SyntaxKind.SuperKeyword ? "super" : "call";
      if (ts.isDecorator(node.parent)) siteKind = "decorator";
    } else if (ts.isNewExpression(node)) {
      calleeExpr = node.expression;
      siteKind = "new";
    } else if (ts.isTaggedTemplateExpression(node)) {
      calleeExpr = node.tag;
      siteKind = "tagged";
    } else return;

    const nameNode = calleeNameNode(calleeExpr);
    const name = siteKind === "super" ? "super" : nameNode ? nameText(nameNode) : null;
    const lineNode = nameNode ?? unwrap(calleeExpr);
    const line = lineOf(lineNode);
    const site = {
      file: rel(sf.fileName),
      line,
      col: sf.getLineAndCharacterOfPosition(lineNode.getStart(sf)).character,
      name,
      kind: siteKind,
      shape: calleeShape(calleeExpr, siteKind),
      text: (() => {
        const t = node.getText(sf).replace(/\s+/g, " ");
        return t.length > 90 ? `${t.slice(0, 87)}...` : t;
      })(),
      status: "unresolved",
      targets: [],
    };
    counts.sites++;

    let sig;
    try {
      sig = checker.getResolvedSignature(node);
    } catch {
      sig = undefined;
    }
    let sigDecl = sig?.declaration;
    // A signature that comes from a type (`cb: () => void`) names no definition in the project;
    // look at the callee's symbol instead (a property signature, a parameter, ...). Type
    // signatures outside the project (lib's `ErrorConstructor`) still mean "resolved elsewhere".
    let typeSig;
    if (sigDecl && isTypeSignature(sigDecl) && projectFile(sigDecl.getSourceFile().fileName)) {
      typeSig = sigDecl;
      sigDecl = undefined;
    }

    let sym;
    if (nameNode && siteKind !== "super") {
      try {
        sym = followAlias(checker.getSymbolAtLocation(nameNode));
      } catch {
        sym = undefined;
      }
    }

    let result = null;
    if (siteKind === "new" || siteKind === "super") {
      // `new B()` where B inherits A's constructor resolves to A's constructor; the graph answer is
      // B (or B's constructor). Accept the class, its own constructor, and the resolved constructor.
      let cls = siteKind === "new" ? sym : undefined;
      if (siteKind === "super") {
        const t = checker.getTypeAtLocation(node.expression);
        cls = t?.symbol;
      }
      if (cls && cls.flags & ts.SymbolFlags.Class) {
        const ct = classTargets(cls, siteKind === "new" ? "class" : "super-class");
        if (ct === null)
          result = {
            status: "elsewhere",
            targets: [],
            elsewhere: { name: cls.name },
          };
        else if (ct.length) result = { status: "project", targets: ct };
      }
      if (sigDecl && ts.isConstructorDeclaration(sigDecl)) {
        const r = classify([sigDecl], "signature");
        if (r?.status === "project") {
          const ctor = r.targets[0];
          const classDecl = sigDecl.parent;
          ctor.className = nameText(classDecl.name) ?? "default";
          ctor.classLine = lineOf(classDecl.name ?? classDecl);
          if (result?.status === "project") {
            if (!result.targets.some((t) => t.file === ctor.file && t.line === ctor.line)) result.targets.push(ctor);
          } else {
            const viaClass = classTargets(classDecl.symbol, "signature-class") ?? [];
            result = { status: "project", targets: [...viaClass, ctor] };
          }
        } else if (!result && r) result = r;
      }
    }
    if (!result && sigDecl) result = classify([sigDecl], "signature");
    if (!result && sym) {
      const decls = sym.valueDeclaration ? [sym.valueDeclaration] : (sym.declarations ?? []);
      // Union/intersection members come as one synthetic symbol with several declarations.
      const all =
        sym.declarations && sym.declarations.length > 1 && sym.flags & ts.SymbolFlags.Transient
          ? sym.declarations
          : decls;
      if (all.length) result = classify(all, "symbol");
    }
    if (!result && typeSig)
      result = {
        status: "local",
        targets: [],
        local: { ...targetOf(typeSig), name: null },
      };
    if (result) {
      site.status = result.status;
      site.targets = result.targets;
      if (result.elsewhere) site.elsewhere = result.elsewhere;
      if (result.local) site.local = result.local;
    }
    sites.push(site);
  };

  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile && !projectFile(sf.fileName)) continue;
    if (!projectFile(sf.fileName)) continue;
    counts.files++;
    const visit = (node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node))
        visitSite(node, sf);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  counts.ms = Date.now() - t0;
  return { root, files: files.map(rel), sites, counts, tsVersion: ts.version };
}
