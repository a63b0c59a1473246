import type { Node } from "web-tree-sitter";
import { MIXIN, MODULE_EXPORTS } from "../../core/extraction.js";
import type { ExtractionBuilder } from "../builder.js";
import type { CommonJsExports } from "./js-exports.js";

/**
 * Calls that give an object another's members, called as `f(target, source)`: Express's
 * `mixin(app, proto)` (merge-descriptors) and `setPrototypeOf(router, proto)`, Connect's
 * `merge(app, proto)` (utils-merge), `Object.assign`, and underscore's and jQuery's `extend`.
 */
const MIXINS = new Set([
  "mixin",
  "merge",
  "Object.assign",
  "setPrototypeOf",
  "Object.setPrototypeOf",
  "_.extend",
  "$.extend",
]);
/** Their last names: a call named otherwise is passed over without reading its callee's text. */
const MIXIN_NAMES = new Set([...MIXINS].map((m) => m.slice(m.lastIndexOf(".") + 1)));

/**
 * `mixin(app, proto)` as a statement (`name` is the callee's last name), both plain names: in the
 * scope around it, app has proto's members, as a local type MIXIN + proto (MIXIN + MODULE_EXPORTS
 * where proto is the file's own module object). Express builds its app and router this way:
 * `app.init()` is application.js's `app.init`. A class's prototype (`Object.assign(X.prototype, ..)`)
 * is PrototypeMembers' part.
 */
export function objectMixin(
  b: ExtractionBuilder,
  name: string,
  call: Node,
  args: Node,
  exports: Pick<CommonJsExports, "isModuleVariable">,
): void {
  if (!MIXIN_NAMES.has(name)) return;
  const fn = call.childForFieldName("function");
  if (!fn || !MIXINS.has(b.text(fn)) || call.parent?.type !== "expression_statement") return;
  const target = args.namedChild(0);
  const source = args.namedChild(1);
  if (target?.type !== "identifier" || source?.type !== "identifier") return;
  const from = b.text(source);
  b.localType(call, b.text(target), `${MIXIN}${exports.isModuleVariable(from, call) ? MODULE_EXPORTS : from}`);
}
