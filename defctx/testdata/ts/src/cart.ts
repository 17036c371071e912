/** A cart. */
export class Cart {
  items: string[] = [];
  /** Adds an item. */
  add(item: string): Cart { this.items.push(item); return this; }
  /** Counts. */
  total(): number { return this.items.length; }
}

/** Makes a cart. */
export function newCart(): Cart { return new Cart(); }
