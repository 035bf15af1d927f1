import { describe, expect, it } from "vitest";
import { linesRunningHookbox, PROFILE_MARK, profileLine, withoutProfileLines, withProfileLine } from "../../src/cli/profile-path.ts";

const LINE = profileLine("/home/dev/.local/bin", "/home/dev", "posix");

describe("the PATH line self-install adds and self-uninstall takes out", () => {
  it("names a directory under HOME as $HOME/…, and refuses one no line can quote plainly", () => {
    expect(LINE).toBe(`case ":$PATH:" in *":$HOME/.local/bin:"*) ;; *) export PATH="$HOME/.local/bin:$PATH" ;; esac  ${PROFILE_MARK}`);
    expect(profileLine("/opt/hookbox bin", "/home/dev", "fish")).toBe(
      `contains -- "/opt/hookbox bin" $PATH; or set -gx PATH "/opt/hookbox bin" $PATH  ${PROFILE_MARK}`,
    );
    for (const dir of ['/opt/a"b', "/opt/$x", "/opt/`x`", "/opt/a\\b"])
      expect(() => profileLine(dir, "/home/dev", "posix")).toThrow(/add it to PATH .* yourself/);
  });

  // Each file: added, then taken out again, gives back the very bytes it had.
  it.each([
    ["no file", undefined, false],
    ["an empty file", "", false],
    ["a file ending with a newline", "alias ll='ls -l'\n", false],
    ["a file without a final newline", "alias ll='ls -l'", true],
    ["CRLF lines", "set -o vi\r\n", false],
  ] as const)("%s: added once, removed to the byte", (_name, text, addedNewline) => {
    const added = withProfileLine(text, LINE);
    expect(added).toMatchObject({ changed: true, addedNewline });
    expect(withProfileLine(added.text, LINE)).toMatchObject({ changed: false, text: added.text });
    expect(withoutProfileLines(added.text, added.addedNewline)).toEqual({ text: text ?? "", removed: 1 });
  });

  it("takes out only marked lines, and the newline it added only while its line is still the last", () => {
    const added = withProfileLine("a=1", LINE).text;
    expect(withoutProfileLines(`${added}b=2\n`, true)).toEqual({ text: "a=1\nb=2\n", removed: 1 });
    expect(withoutProfileLines(`x\n${LINE}\ny\n${profileLine("/srv/bin", "/home/dev", "posix")}\n`, false)).toEqual({ text: "x\ny\n", removed: 2 });
    expect(withoutProfileLines(`# ${PROFILE_MARK.slice(2)}: a line that only mentions it\n`, false).removed).toBe(0);
    expect(withoutProfileLines('export PATH="$HOME/.local/bin:$PATH"\n', false)).toEqual({
      text: 'export PATH="$HOME/.local/bin:$PATH"\n',
      removed: 0,
    });
  });

  it("names the lines a user wrote that run hookbox, not comments, not its own, not words that only contain it", () => {
    const text = [
      'eval "$(hookbox completion bash)"',
      "# hookbox completion bash",
      LINE,
      "alias hb=hookbox",
      "export MYHOOKBOX=1",
      "~/.local/bin/hookbox doctor",
      "hookboxes",
    ].join("\n");
    expect(linesRunningHookbox(text).map((line) => line.line)).toEqual([1, 4, 6]);
  });
});
