export * from "./b";
export { a } from "./b";
