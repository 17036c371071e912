import type { Config } from "./config";
import fs = require("fs");
import Alias = Geometry.Units;
import { type A, B as C } from "./ab";

export = Alias;
export type { Config };
export * as ns from "./ns";

for await (const line of readLines(fs)) {
  const parsed: Config = JSON.parse(line) as Config;
  console.log(parsed, C);
}

try {
  run();
} catch (e: unknown) {
  if (e instanceof Error) throw e;
}
