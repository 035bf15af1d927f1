// Where the daemon's socket is when no flag says: the one rule `hookbox serve`, `emit` and
// hookbox/client share (src/hooks/config/locations.ts resolves the flags over it).

/** The variable that stands in for --socket (a relative path is taken from the working directory, as the flag's). */
export const SOCKET_VARIABLE = "HOOKBOX_SOCKET";

export function defaultSocketPath(env: Readonly<Record<string, string | undefined>>, home: string): string {
  return env.XDG_RUNTIME_DIR ? `${env.XDG_RUNTIME_DIR}/hookbox/hookbox.sock` : `${home}/.hookbox/run/hookbox.sock`;
}
