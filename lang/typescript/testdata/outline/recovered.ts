// path: src/Function.ts
import * as Effect from "./Effect.ts"

/**
 * Makes a dual function.
 */
export const dual: {
  <DataLast extends (...args: Array<any>) => any, DataFirst extends (...args: Array<any>) => any>(
    arity: Parameters<DataFirst>["length"],
    body: DataFirst
  ): DataLast & DataFirst
  <DataLast extends (...args: Array<any>) => any, DataFirst extends (...args: Array<any>) => any>(
    isDataFirst: (args: IArguments) => boolean,
    body: DataFirst
  ): DataLast & DataFirst
} = function(arity, body) {
  return body
}

/** The identity. */
export const identity = <A>(a: A): A => a

export type LazyArg<A> = () => A

export function pipe(a: unknown, ...args: Array<any>): unknown {
  return a
}

export class Box {
  get(): number { return 1 }
}
