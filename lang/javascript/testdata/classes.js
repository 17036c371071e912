class Counter extends EventEmitter {
  static instances = 0;
  #count = 0;
  label;

  static {
    Counter.instances = load();
  }

  constructor(start, step) {
    super();
    this.#count = start;
    this.step = step;
  }

  get value() {
    return this.#count;
  }

  set value(v) {
    this.#count = v;
    this.emit("change", v);
  }

  increment() {
    this.#count += this.step;
    return this;
  }

  static create() {
    return new Counter(0, 1);
  }
}

const Anon = class extends Base {
  run() { return this.x; }
};
