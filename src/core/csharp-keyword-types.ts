/**
 * C#'s keyword types and the System types they are (`string` is `System.String`, `int` is
 * `System.Int32`): a value declared with either spelling is of one type, and an extension method of
 * it (`Slug(this string s)`, `Upper(this String s)`) is matched by that one name. Shared by the C#
 * extractor, which writes the System name, and its resolution rules. `void` and `dynamic` are no
 * value's type to match.
 */
export const CSHARP_KEYWORD_TYPES: ReadonlyMap<string, string> = new Map([
  ["bool", "Boolean"],
  ["byte", "Byte"],
  ["sbyte", "SByte"],
  ["char", "Char"],
  ["decimal", "Decimal"],
  ["double", "Double"],
  ["float", "Single"],
  ["int", "Int32"],
  ["uint", "UInt32"],
  ["nint", "IntPtr"],
  ["nuint", "UIntPtr"],
  ["long", "Int64"],
  ["ulong", "UInt64"],
  ["short", "Int16"],
  ["ushort", "UInt16"],
  ["object", "Object"],
  ["string", "String"],
]);
