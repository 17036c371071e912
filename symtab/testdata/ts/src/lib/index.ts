export * from "./math";
export { add as plus } from "./math.js";
