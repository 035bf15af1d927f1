import { underRoot } from "../../core/text/posix-path.ts";
import { jsonManagedSettings } from "../shared/install/managed.ts";
import { installer } from "./install.ts";

/** Cursor's enterprise hooks (/etc/cursor/hooks.json on Linux, research §3.1): first of its sources; every matching hook of every source runs. */
export const managed = jsonManagedSettings({
  agent: "cursor",
  label: "Cursor enterprise hooks.json",
  installer: installer,
  path: (root) => underRoot(root, "/etc/cursor/hooks.json"),
  holds: "Cursor runs the enterprise hooks.json's hooks besides the team's, the project's and the user's (all matching hooks of every source run).",
  cannot: ["not checked against the real Cursor, which our tests do not run: from its documentation only"],
  checked: "Cursor's documentation (enterprise hooks.json); Cursor is not run by our tests",
});
