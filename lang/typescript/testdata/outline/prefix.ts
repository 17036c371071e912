// path: src/prefix.ts
import { Store } from "./store";

export class Service {
  private store = new Store();

  load(id: string): Item {
    return this.store.get(id);
  }

  save(item: Item) {
    if (item) {
      this.store.
