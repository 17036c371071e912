// path: src/ui/widget.js
import Component, { h as hyper } from "./component.js";
import * as dom from "../dom/index.js";
import lodash from "lodash";
const fs = require("fs");
const { join, resolve: res } = require("./path.cjs");

/**
 * A widget.
 */
export class Widget extends Component {
  /** The count. */
  count = 0;
  static #instances = new Registry();

  constructor(props) {
    super(props);
  }

  get label() { return "w"; }

  /** Renders. */
  render() {
    return hyper("div");
  }
}

class Mixed extends mixin(Base) {}

// Makes a widget.
export function makeWidget(props) { return new Widget(props); }

export const render = (w) => w.render();
export let state = new State();
var legacy = function () {};
export default Widget;
export { makeWidget as make };
