import { add, Vec } from "@lib/math";
import * as lib from "../lib";
import M from "@lib/math.js";
import { settings } from "config";
import React from "react";
import { missing } from "./nowhere";
import { a } from "../cyc/a";

export function main(): void {
  add(1, 2);
  const v: Vec = Vec.zero();
}
