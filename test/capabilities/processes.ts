import { execFileSync } from "node:child_process";

/** Processes still alive (zombies excluded: init reaps orphans on its own schedule) whose command line holds `marker`. */
export function liveProcesses(marker: string): string[] {
  return execFileSync("ps", ["-eo", "pid=,stat=,args="])
    .toString()
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.includes(marker))
    .filter((line) => !/^\d+\s+Z/.test(line));
}

/**
 * A sleep duration that marks its process: whole seconds plus random digits, so that checks for
 * leftovers see only this run's processes (other runs of the suite may share the machine).
 */
export function markedSeconds(seconds: number): string {
  return `${seconds}.${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}
