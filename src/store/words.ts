/**
 * The words inside an identifier, lower case: `getUserById` → `get user by id`, `HTTP_SERVER` → `http server`.
 * Indexed beside the name so a search for `user` finds `getUserById`.
 */
export function searchWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_$\-.]+/g, " ")
    .trim()
    .toLowerCase();
}
