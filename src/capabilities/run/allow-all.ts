/**
 * Programs that turn a run grant into a grant to run anything (Deno #2128: allow-run of an
 * interpreter is allow-all): shells, language interpreters, package runners that fetch and run
 * code, command runners (xargs, env, timeout …), privilege escalators, remote shells, network
 * tools (the network is off by default), editors and pagers with shell escapes, compilers with
 * plug-ins and wrappers, container tools. Without an operator ceiling they need the operator's
 * approval for the hook. Matched on every name a command has: as written, as found on PATH
 * and as its real file (awk → /etc/alternatives/awk → mawk).
 */
const FAMILIES: readonly { readonly what: string; readonly names: RegExp }[] = [
  {
    what: "a shell",
    names: /^(sh|bash|rbash|zsh|dash|ksh|ksh93|mksh|pdksh|oksh|csh|tcsh|fish|ash|busybox|toybox|nu|elvish|xonsh|pwsh|powershell|rc|yash|osh|oil)$/,
  },
  {
    what: "an interpreter",
    names:
      /^(node(js)?[0-9.]*|deno|bun|tsx|ts-node|python[0-9.]*(-config)?|pypy[0-9.]*|ruby[0-9.]*|irb|perl[0-9.]*|php[0-9.]*(-cgi)?|lua(jit|[0-9.]*)|tclsh[0-9.]*|wish[0-9.]*|expect|r|rscript|julia|java[0-9.]*|jshell|groovy|scala|kotlin|dotnet|osascript|(g|m|n|busybox-)?awk|gdb|lldb|m4)$/,
  },
  {
    what: "a package runner (it fetches and runs code)",
    names:
      /^(npx|npm|pnpm|pnpx|yarn|yarnpkg|corepack|bunx|pip[0-9.]*|uv|uvx|pipx|poetry|pdm|hatch|conda|mamba|gem|bundle|bundler|rake|cargo|go|composer|mvn|gradle)$/,
  },
  { what: "a build tool (it runs the commands of a build file)", names: /^(make|gmake|bmake|cmake|just|task)$/ },
  {
    what: "a compiler (plug-ins and wrappers run programs)",
    names: /^(cc|c\+\+|gcc|g\+\+|clang|clang\+\+|gcc-[0-9.]+|g\+\+-[0-9.]+|clang-[0-9.]+|rustc|ld)$/,
  },
  {
    what: "a command runner",
    names:
      /^(env|xargs|nice|nohup|timeout|stdbuf|time|setsid|setpriv|ionice|taskset|chrt|prlimit|flock|watch|script|parallel|strace|ltrace|valgrind|eatmydata|fakeroot|fakechroot|unbuffer|entr|systemd-run|at|batch|crontab|tmux|screen|dbus-launch|xdg-open|open|run-parts|start-stop-daemon)$/,
  },
  { what: "a privilege escalator", names: /^(sudo|su|doas|pkexec|runuser|chroot|unshare|nsenter|capsh|firejail|bwrap|proot|machinectl)$/ },
  { what: "a remote shell", names: /^(ssh|slogin|scp|sftp|rsh|rlogin|telnet|mosh)$/ },
  { what: "a network tool (hooks are air-gapped by default)", names: /^(curl|wget|nc|ncat|netcat|socat|ftp|tftp|aria2c|httpie|http|https)$/ },
  { what: "an editor or pager with a shell escape", names: /^(vi|vim|nvim|view|vimdiff|ex|ed|emacs|emacsclient|less|more|most|man|info)$/ },
  { what: "a container or system manager", names: /^(docker|podman|nerdctl|kubectl|lxc|systemctl|launchctl|service|crictl)$/ },
];

/** Why running a command with one of these names is allow-all, or undefined when it is not. */
export function allowAllReason(names: readonly string[]): string | undefined {
  for (const name of names) {
    const family = FAMILIES.find((candidate) => candidate.names.test(name.toLowerCase()));
    if (family) return `${name} is ${family.what}: a grant to run it is a grant to run anything (Deno #2128)`;
  }
  return undefined;
}
