/** Adds. */
export function add(a: number, b: number): number { return a + b; }

/** A vector. */
export class Vec extends Base {
  norm(): number { return 0; }
  static zero(): Vec { return new Vec(); }
}

class Base {
  /** Scales. */
  scale(k: number): Vec { return new Vec(); }
}

export default class Matrix {
  rows = 0;
}
