import { helper, Widget } from "./util.js";
import { plus } from "../lib/index.js";
import settingsModule from "config";
