// src/serve owns what a daemon runs: daemon/, api/ (the Hono app), console/, triggers/; it must not import src/cli or an entry point.
// Import its files directly: this index re-exports nothing (main.ts loads the daemon without the rest of the command line).
export {};
