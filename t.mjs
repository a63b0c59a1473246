import { Parser, Language } from "web-tree-sitter";
await Parser.init();
const [lang, file] = process.argv.slice(2);
const L = await Language.load(`node_modules/tree-sitter-wasms/out/tree-sitter-${lang}.wasm`);
const p = new Parser(); p.setLanguage(L);
const fs = await import("node:fs");
console.log(p.parse(fs.readFileSync(file, "utf8")).rootNode.toString().replace(/\(/g, "\n(").slice(0, 20000));
