import { phrases, type KeywordSet } from "./types.js";

export const en: KeywordSet = {
  lang: "en",
  name: "English",
  match: "words",
  patterns: phrases(`
    # where and how
    how does | how do | how did | how is | how are | how was | how were | how come
    where is | where are | where was | where does | where do | where did | where s
    show me where | tell me where | find where | find out where | figure out where | see where
    which file | which files | which function | which class | which method | which module | which component
    what file | what function | what class | what method | what module | what does | why does
    responsible for | explain how | walk me through | walk through | entry point | entrypoint
    # who calls what
    who calls | what calls | who uses | what uses | who imports | what imports | called from | called by
    gets called | invoked from | invoked by | calls into | call graph | call chain | call stack | call site
    call sites | caller | callers | callee | callees | usages | used by | references to | referenced by
    # flow
    flow | flows | data flow | control flow | code path | execution path | what happens | lifecycle
    life cycle | trace | traced | tracing
    # impact and dependencies
    impact | impacts | impacted | blast radius | what breaks | what would break | affected by
    depends on | depend on | dependents | dependency graph
    # structure
    architecture | structure of | defined | definition of | declared | implemented | implementation of
    relationship between | interacts with | interact with | wired up | hooked up
  `),
};
