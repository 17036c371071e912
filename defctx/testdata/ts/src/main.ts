import { newCart } from "./cart.js";
import * as carts from "./cart";

export function main(): void {
  const c = newCart();
  c.add("x");
  console.log(c.total(), carts.newCart());
}
