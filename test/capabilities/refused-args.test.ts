import { describe, expect, it } from "vitest";
import { allowAllReason } from "../../src/capabilities/run/allow-all.ts";
import { argsMatch, shellSyntax } from "../../src/capabilities/run/argv.ts";
import { refusedArguments } from "../../src/capabilities/run/refused-args.ts";
import { sedScriptIsDangerous } from "../../src/capabilities/run/refused-scripts.ts";
import { splitCommandLine } from "../../src/capabilities/run/tokenize.ts";

/** [command, argv, refused?] — each refused row next to a permitted neighbour. */
const ROWS: [string, string[], RegExp | undefined][] = [
  ["git", ["-c", "core.pager=sh", "log"], /sets git configuration/],
  ["git", ["-ccore.fsmonitor=sh -c id", "status"], /sets git configuration/],
  ["git", ["--config-env=core.pager=X", "log"], /sets git configuration/],
  ["git", ["log", "-c"], undefined], // combined-diff format, not config
  ["git", ["grep", "-c", "x"], undefined], // count
  ["git", ["diff", "--output=/tmp/x"], /write files/],
  ["git", ["diff", "--output", "/tmp/x"], /write files/],
  ["git", ["diff", "--output-indicator-new=>"], undefined],
  ["git", ["diff", "--stat"], undefined],
  ["git", ["fetch", "--upload-pack=touch /tmp/pwned", "origin"], /names a program/],
  ["git", ["fetch", "origin"], undefined],
  ["git", ["push", "--receive-pack=x"], /names a program/],
  ["git", ["archive", "--remote=x", "--exec=sh"], /names a program/],
  ["git", ["archive", "-o", "/tmp/x.tar", "HEAD"], /write files/],
  ["git", ["clone", "-u", "sh", "x"], /names a program/],
  ["git", ["clone", "--template=/tmp/t", "x"], /copies hook scripts/],
  ["git", ["clone", "-c", "core.fsmonitor=x", "x"], /sets git configuration/],
  ["git", ["fetch", "ext::sh -c id"], /ext:: and fd:: transports/],
  ["git", ["grep", "-Ovim", "x"], /names a program/],
  ["git", ["grep", "-nO", "x"], /names a program/],
  ["git", ["grep", "-n", "x"], undefined],
  ["git", ["rebase", "-x", "sh", "HEAD~1"], /names a program/],
  ["git", ["-C", "/", "status"], /outside the workspace/],
  ["git", ["--git-dir=/tmp/evil/.git", "status"], /outside the workspace/],
  ["git", ["diff", "--no-index", "/etc/shadow", "x"], /outside the repository/],
  ["git", ["blame", "--contents", "/etc/shadow", "x"], /outside the repository/],
  ["git", ["--exec-path=/tmp/evil", "status"], /helper programs/],
  ["git", ["config", "alias.x", "!sh"], /git config other than reading/],
  ["git", ["config", "--get", "core.pager"], undefined],
  // git's parse-options takes any unique prefix of a long option.
  ["git", ["ls-remote", "--upload-pa=touch /tmp/pwned", "."], /names a program/],
  ["git", ["ls-remote", "--u", "touch /tmp/pwned", "."], /names a program/],
  ["git", ["clone", "--conf=core.fsmonitor=x", "x"], /sets git configuration/],
  ["git", ["config", "--ed"], /git config other than reading/],
  ["git", ["config", "--fil=/etc/shadow", "--list"], /git config other than reading/],
  ["git", ["config", "--list", "--fixed-value"], undefined],
  ["git", ["diff", "--textc"], /textconv/],
  ["git", ["diff", "--ext-diff"], /external diff/],
  ["git", ["diff", "--no-ext-diff", "--stat", "--cc"], undefined],
  ["git", ["config", "--file", "/etc/shadow", "--list"], /git config other than reading/],
  ["git", ["submodule", "foreach", "id"], /git submodule/],
  ["git", ["filter-branch", "x"], /shell snippets/],
  ["git", ["status", "--porcelain"], undefined],
  ["find", [".", "-name", "*.ts", "-exec", "sh", "-c", "id", ";"], /run another program/],
  ["find", [".", "-execdir", "id", "+"], /run another program/],
  ["find", [".", "-ok", "id", ";"], /run another program/],
  ["find", [".", "-delete"], /write files/],
  ["find", [".", "-name", "*.ts"], undefined],
  ["tar", ["-cf", "x.tar", "--to-command=sh", "."], /run another program/],
  ["tar", ["--checkpoint=1", "--checkpoint-action=exec=sh", "-cf", "x", "."], /run another program/],
  ["tar", ["-I", "sh", "-cf", "x", "."], /run another program/],
  ["tar", ["-tf", "x.tar"], undefined],
  ["rsync", ["-e", "sh -c id", "a", "b"], /run another program/],
  ["rsync", ["-avze", "sh", "a", "b"], /run another program/],
  ["rsync", ["--rsh=sh", "a", "b"], /run another program/],
  ["rsync", ["-av", "a", "b"], undefined],
  ["ssh", ["-o", "ProxyCommand=sh -c id", "h"], /ProxyCommand/],
  ["ssh", ["-oProxyCommand=id", "h"], /ProxyCommand|run local programs/],
  ["scp", ["-S", "/tmp/evil", "a", "h:b"], /picks the program/],
  ["sed", ["e id", "f"], /sed commands e, w/],
  ["sed", ["-n", "1e id", "f"], /sed commands e, w/],
  ["sed", ["s/a/b/e", "f"], /sed commands e, w/],
  ["sed", ["s/a/b/w /tmp/out", "f"], /sed commands e, w/],
  ["sed", ["-e", "1r /etc/shadow", "f"], /sed commands e, w/],
  ["sed", ["bs;e id;x;", "f"], /sed commands e, w/],
  ["sed", ["-i", "s/a/b/", "f"], /edits files in place/],
  ["sed", ["-f", "script.sed", "f"], /cannot be checked/],
  ["sed", ["-n", "s/hello/world/p", "README.md"], undefined],
  ["sed", ["-n", "1,20p", "f"], undefined],
  ["sed", ["-e", "s/we/ew/g", "-e", "/re/d", "f"], undefined],
  ["awk", ['BEGIN{system("id")}'], /system\(\)/],
  ["awk", ['{print | "sh"}'], /system\(\)/],
  ["awk", ["{print $1}"], undefined],
  ["zip", ["-T", "-TT", "sh -c id", "x.zip", "f"], /run another program/],
  ["pytest", ["-p", "evil_module"], /plug-in module/],
  ["pytest", ["-pevil"], /plug-in module/],
  ["pytest", ["-qp", "evil"], /plug-in module/],
  ["pytest", ["-p", "no:cacheprovider", "-q"], undefined],
  ["pytest", ["--pdbcls=evil:Debugger"], /imports a module/],
  ["cat", ["/proc/1/environ"], /naming \/proc, \/sys or \/dev/],
  ["grep", ["-r", "x", "/dev/sda"], /naming \/proc, \/sys or \/dev/],
  ["cat", ["--file=/proc/self/environ"], /naming \/proc/],
  ["diff", ["a", "/dev/null"], undefined],
  ["cat", ["/process/x"], undefined],
];

describe("refused argument classes (no grant lifts them)", () => {
  it.each(ROWS)("%s %j", (command, argv, refused) => {
    const reason = refusedArguments([command], argv);
    if (refused) expect(reason).toMatch(refused);
    else expect(reason).toBeUndefined();
  });

  it("names under which a program is known all count (an alias symlink to git is git)", () => {
    expect(refusedArguments(["my-tool", "git"], ["-c", "x=y", "log"])).toMatch(/configuration/);
  });
});

describe("sed script parser", () => {
  it.each([
    ["p", false],
    ["1d;$d", false],
    ["/^#/d", false],
    ["s|/usr|/opt|g", false],
    ["y/abc/xyz/", false],
    ["2,4{s/x/y/;p}", false],
    ["$!N;P;D", false],
    ["/wow/Ip", false],
    ["a hello", false],
    ["w out", true],
    ["W out", true],
    ["R f", true],
    ["s/x/y/ w f", true],
    ["s/x/y/ge", true],
    ["1~2e date", true],
    ["\\%x%e id", true],
    ["s/x/y", true], // unterminated: unreadable, refused
    ["k", true], // unknown command: refused
  ])("%j dangerous=%s", (script, dangerous) => expect(sedScriptIsDangerous(script)).toBe(dangerous));
});

describe("allow-all programs (need the operator)", () => {
  it.each([
    ["sh"],
    ["bash"],
    ["python3"],
    ["python3.12"],
    ["node"],
    ["bun"],
    ["deno"],
    ["npx"],
    ["env"],
    ["xargs"],
    ["sudo"],
    ["ssh"],
    ["perl"],
    ["ruby"],
    ["php"],
    ["curl"],
    ["make"],
    ["awk"],
    ["mawk"],
    ["vim"],
    ["docker"],
  ])("%s", (name) => expect(allowAllReason([name])).toMatch(/a grant to run it is a grant to run anything/));
  it.each([["git"], ["ls"], ["cat"], ["grep"], ["pytest"], ["vitest"], ["sed"], ["find"], ["printenv"], ["sleep"]])("%s is not", (name) =>
    expect(allowAllReason([name])).toBeUndefined(),
  );
  it("checks every name: a real file that is a shell", () => expect(allowAllReason(["innocent", "dash"])).toMatch(/dash is a shell/));
});

describe("argv patterns", () => {
  it.each([
    [["diff", "--stat", "*"], ["diff", "--stat", "HEAD"], true],
    [["diff", "--stat", "*"], ["diff", "--stat"], false],
    [["diff", "--stat", "*"], ["diff", "--stat", "a", "b"], false],
    [["diff", "**"], ["diff"], true],
    [["diff", "**"], ["diff", "a", "b", "c"], true],
    [["diff", "**"], ["log"], false],
    [["*"], ["HEAD; rm -rf /"], false],
    [["*"], ["$(id)"], false],
    [["*"], ["`id`"], false],
    [["**"], ["a", "b|c"], false],
    [["HEAD;x"], ["HEAD;x"], true],
    [[], [], true],
  ])("%j vs %j → %s", (pattern, argv, expected) => expect(argsMatch(pattern, argv)).toBe(expected));

  it.each([
    ["a;b", ";"],
    ["$(id)", "$("],
    ["${x}", "${"],
    ["a\nb", "a newline"],
    ["a|b", "|"],
    ["plain-arg=1", undefined],
    ["$HOME", undefined],
  ])("shellSyntax(%j) = %j", (arg, found) => expect(shellSyntax(arg)).toBe(found));
});

describe("command lines for runTests", () => {
  it.each([
    ["pytest -q tests", ["pytest", "-q", "tests"]],
    ["pytest -k 'a or b'", ["pytest", "-k", "a or b"]],
    ['vitest run "my file.test.ts"', ["vitest", "run", "my file.test.ts"]],
    ["a\\ b c", ["a b", "c"]],
    ["x ''", ["x", ""]],
  ])("%j", (line, argv) => expect(splitCommandLine(line)).toEqual({ ok: true, argv }));

  it.each([["pytest; id"], ["pytest $(id)"], ["pytest | tee x"], ["pytest `id`"], ["pytest 'x"], ["   "]])("%j is refused", (line) =>
    expect(splitCommandLine(line).ok).toBe(false),
  );
});
