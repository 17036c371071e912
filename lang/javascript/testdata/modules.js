import fs from "fs";
import * as path from "path";
import { readFile, writeFile as write } from "fs/promises";
import def, { named } from "./local.js";
import "./side-effect.js";

export const VERSION = "1.0";
export function main(argv) {
  return run(argv, fs, path, readFile, write, def, named);
}
export default class App {}
export { main as start, VERSION };
export * from "./utils.js";
export { helper } from "./helpers.js";
const lazy = await import("./lazy.js");
module.exports = { main };
