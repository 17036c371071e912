export interface Shape extends Named {
  readonly kind: "circle" | "square";
  area(): number;
  [key: string]: unknown;
}

export type Result<T, E = Error> = { ok: true; value: T } | { ok: false; error: E };

export enum Color {
  Red = 1,
  Green = Red << 1,
  Blue,
}

declare const enum Flags { None }

export namespace Geometry.Units {
  export const scale = 2;
  export function convert(x: number): number {
    return x * scale;
  }
}

declare module "legacy" {
  export function old(): void;
}

declare global {
  interface Window { app: App }
}

declare function external(name: string): void;
