// `--name value` options of a bench script, read the same way by each.

/** A reader of `--name value` from argv: `opt("repo", "django")`. */
export function optionReader(args = process.argv.slice(2)) {
  return (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
}
