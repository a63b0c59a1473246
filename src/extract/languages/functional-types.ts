/**
 * Library types of functions, by simple name: for each parameter of a lambda given where one is
 * expected, the index of the type argument that is its type. `Consumer<Order>` takes an Order,
 * `BiFunction<String, Order, R>` a String and an Order. A parameter's type then types a lambda
 * argument's parameters at the call (`each(o -> o.save())` with `void each(Consumer<Order> f)`).
 */
const JAVA: [string, number[]][] = [
  ["Consumer", [0]],
  ["BiConsumer", [0, 1]],
  ["Function", [0]],
  ["BiFunction", [0, 1]],
  ["Predicate", [0]],
  ["BiPredicate", [0, 1]],
  ["UnaryOperator", [0]],
  ["BinaryOperator", [0, 0]],
  ["ToIntFunction", [0]],
  ["ToLongFunction", [0]],
  ["ToDoubleFunction", [0]],
  ["ToIntBiFunction", [0, 1]],
  ["ToLongBiFunction", [0, 1]],
  ["ToDoubleBiFunction", [0, 1]],
  ["ObjIntConsumer", [0]],
  ["ObjLongConsumer", [0]],
  ["ObjDoubleConsumer", [0]],
  ["Comparator", [0, 0]],
];

export const JAVA_FUNCTIONAL_TYPES: ReadonlyMap<string, readonly number[]> = new Map(JAVA);

/**
 * C#'s delegates: `Action<T1, T2>` takes all its type arguments, `Func<T1, T2, TResult>` all but the
 * last; the rest by position.
 */
export function csharpDelegateParameters(name: string, typeArguments: number): readonly number[] | null {
  const all = Array.from({ length: typeArguments }, (_, k) => k);
  switch (name) {
    case "Action":
      return all;
    case "Func":
      return all.slice(0, -1);
    case "Predicate":
      return [0];
    case "Comparison":
      return [0, 0];
    case "Converter":
      return [0];
    default:
      return null;
  }
}
