export * from "./a";
export { a } from "./a";
