// path: src/shop/cart.ts
import Default, { Item, Price as P } from "./item.js";
import * as util from "../util";
import type { Store } from "@app/store";
import React from "react";
import "./side-effect";
import fs = require("fs");
export { helper, other as renamed } from "./helpers";
export * from "./all";
export * as ns from "./ns";

/** A cart of items. */
@sealed
export class Cart<T> extends Base<T> implements Countable, util.Named {
  /** The items. */
  items: Item[] = [];
  private store = new Store();
  static readonly MAX: number = 10;
  #secret = 1;

  constructor(private readonly owner: Owner) {
    super();
  }

  /**
   * Adds an item.
   */
  @logged
  add(item: Item): Cart<T> {
    return this;
  }

  get size(): number { return this.items.length; }
  onChange = (e: Event): void => {};
  abstract total(): Price;
}

// Shoppers buy.
export interface Shopper extends Person, util.Named {
  name: string;
  buy(c: Cart<Item>): Receipt;
  readonly [key: string]: unknown;
}

export type ID = string;
export type Point = { x: number; y: Coord };
type Alias = util.Named<string>;

export enum Color { Red, Green = "g" }

export namespace Geometry {
  export function area(s: Shape): number { return 0; }
  export const ORIGIN = new Point();
  namespace Inner { function deep() {} }
}

export function checkout(cart: Cart<Item>,
                         pay: Payment): Receipt {
  return null;
}

export const total = (c: Cart<Item>): Price => c.total();
export const VERSION = "1";
let counter: Counter;
declare function ambient(x: number): void;
export default function make() {}
function overload(a: string): void;
export { checkout as pay };
