// skill-activation: when the user submits a prompt, find the project's skills whose name and
// description share meaningful words with it, and put the best few in front of the model (as
// context, and as suggested_abilities for the agent) so a relevant skill is read before the
// work starts instead of after a wrong first attempt (seeds 000/001).
//
// A skill is <skills_dir>/<name>/SKILL.md with YAML front matter holding `name:` and
// `description:` (Claude Code's layout). Scoring is keyword overlap with stop words removed and
// light stemming; a word found in the skill's name counts double, and a word most skills share
// counts less (inverse document frequency), so "write" alone does not pick every skill.

type Obj = Record<string, unknown>;

interface Skill {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly nameTokens: readonly string[];
  readonly bodyTokens: readonly string[];
}

interface Match {
  readonly skill: Skill;
  readonly score: number;
  readonly words: readonly string[];
}

/** English function words and agent-chat filler: sharing only these is not a match. */
const STOP_WORDS = new Set(
  (
    "a about above after again against all almost also am an and any anything are as at be because been before being below between both but by can " +
    "cannot could did do does doing done down during each either else even ever every few for from further get gets getting got had has have having he " +
    "her here hers herself him himself his how however i if in into is it its itself just least less let like make makes many may me might more most " +
    "much must my myself need needs no nor not now of off often on once one only or other our ours ourselves out over own please put quite rather " +
    "really same see seem she should since so some something still such than thank thanks that the their theirs them themselves then there these they " +
    "thing things this those though through thus to too under until up upon us use used using very via want wants was we well were what whatever when " +
    "where whether which while who whom whose why will with within without would yes yet you your yours yourself yourselves " +
    "able across actually add already always another anyone around ask asked away back best better come could doesn don etc far first go going good " +
    "great help hey hi hello instead keep know last later look lot maybe new next nothing okay ok right say show start sure take tell try ve way " +
    "work works working user skill skills claude"
  ).split(/\s+/),
);

const SUFFIXES: readonly (readonly [string, string])[] = [
  ["ation", "at"],
  ["ment", ""],
  ["ing", ""],
  ["ed", ""],
  ["ly", ""],
];
const DEFAULT_DIR = ".claude/skills";
const MAX_PROMPT_CHARS = 8000;
const MAX_DESCRIPTION_CHARS = 300;

export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  const prompt = typeof event.prompt === "string" ? event.prompt : "";
  const config: Readonly<Obj> = isObj(hook.config) ? hook.config : {};
  // Slash commands name what they want already; tag-wrapped prompts (<task-notification>,
  // <command-name> …) are written by the agent itself, not by the user.
  if (prompt.trim() === "" || /^\s*\/[\w:-]+/.test(prompt) || /^\s*<[a-z][\w-]*>/i.test(prompt)) return { action: "continue" };

  const dir = skillsDir(config.skills_dir);
  if (dir === undefined) {
    return {
      action: "continue",
      user_message: `skill-activation: config.skills_dir must be a directory path without "..": got ${JSON.stringify(config.skills_dir)}`,
      user_message_level: "warning",
    };
  }
  const extraStop = Array.isArray(config.extra_stop_words)
    ? config.extra_stop_words.filter((w): w is string => typeof w === "string").map((w) => w.toLowerCase())
    : [];
  const stop = new Set([...STOP_WORDS, ...extraStop]);

  let skills: Skill[];
  try {
    skills = await loadSkills(hook, dir, intIn(config.max_skills, 50, 1, 150), stop);
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    if (e.code === "not_found") return { action: "continue" }; // no skills directory: nothing to suggest
    if (e.code === "capability_denied") {
      // Operators can narrow a hook's grants, never widen them: another directory needs a copy.
      const grant = dir.startsWith("/") ? `${dir}/**` : `\${workspace}/${dir}/**`;
      return {
        action: "continue",
        user_message:
          `skill-activation cannot read ${dir} (${String(e.message)}). It is granted ${DEFAULT_DIR} only; to use ${dir}, copy the hook into a directory ` +
          `listed in hookbox.yaml hooks_dirs and set its permissions.read to ["${grant}"].`,
        user_message_level: "warning",
      };
    }
    throw error;
  }
  if (skills.length === 0) return { action: "continue" };

  const spelled = new Map<string, string>();
  const words = unique(tokenize(prompt.slice(0, MAX_PROMPT_CHARS), stop, 3, spelled));
  const matches = rank(words, skills, numberIn(config.min_score, 2, 0, 100)).slice(0, intIn(config.max_suggestions, 3, 1, 10));
  const shown = (m: Match): string => m.words.map((w) => spelled.get(w) ?? w).join(", ");
  if (matches.length === 0) {
    hook.log("debug", `no skill matched (${skills.length} skills; prompt words: ${words.slice(0, 20).join(" ")})`);
    return { action: "continue" };
  }
  hook.log("info", `suggested ${matches.map((m) => `${m.skill.name} (${m.score.toFixed(2)}: ${shown(m)})`).join("; ")}`);
  const lines = [
    "Skills in this project that match the request (from the skill-activation hook). Read a skill's SKILL.md before starting, and follow it if it applies:",
    ...matches.map((m) => `- ${m.skill.name} (${m.skill.path}): ${m.skill.description} [matched: ${shown(m)}]`),
  ];
  return {
    action: "inject_context",
    context_injection: lines.join("\n"),
    suggested_abilities: matches.map((m) => m.skill.name),
  };
}

/** Skills found directly under dir: <dir>/<name>/SKILL.md, read up to max of them. */
async function loadSkills(hook: Hook, dir: string, max: number, stop: ReadonlySet<string>): Promise<Skill[]> {
  const files = await hook.listFiles(dir, { recursive: true, extensions: [".md"], maxFiles: 2000 });
  const prefix = `${dir}/`;
  const manifests = files.filter((file) => file.startsWith(prefix) && /^[^/]+\/SKILL\.md$/.test(file.slice(prefix.length))).slice(0, max);
  const skills: Skill[] = [];
  for (const path of manifests) {
    let text: string;
    try {
      text = await hook.readFile(path, { maxBytes: 8192 });
    } catch (error) {
      // One unreadable skill (a deny rule, a file swapped for a FIFO) must not hide the others.
      hook.log("warn", `${path}: ${String((error as { message?: unknown }).message)}`);
      continue;
    }
    const meta = frontMatter(text);
    const folder = path.slice(prefix.length, path.length - "/SKILL.md".length);
    const name = clean(meta.name ?? folder, 64) || folder;
    const description = clean(`${meta.description ?? ""}${meta.when_to_use ? ` ${meta.when_to_use}` : ""}`, 1024);
    if (description === "") {
      hook.log("debug", `${path}: no description in its front matter; skipped`);
      continue;
    }
    skills.push({
      name,
      description: description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : description,
      path,
      nameTokens: unique(tokenize(`${name} ${folder}`.replace(/[-_]/g, " "), stop, 2)),
      bodyTokens: unique(tokenize(description, stop)),
    });
  }
  return skills;
}

/** Score every skill; keep those at or above minScore, best first (ties by name). */
function rank(words: readonly string[], skills: readonly Skill[], minScore: number): Match[] {
  const matchesIn = (word: string, tokens: readonly string[]): boolean => tokens.some((token) => related(word, token));
  const count = skills.length;
  const idf = (word: string): number => {
    const df = skills.filter((s) => matchesIn(word, s.nameTokens) || matchesIn(word, s.bodyTokens)).length;
    return df === 0 ? 0 : Math.log(1 + count / df) / Math.log(1 + count);
  };
  const weights = new Map(words.map((w) => [w, idf(w)]));
  const matches: Match[] = [];
  for (const skill of skills) {
    let score = 0;
    const hit: string[] = [];
    for (const word of words) {
      const weight = matchesIn(word, skill.nameTokens) ? 2 : matchesIn(word, skill.bodyTokens) ? 1 : 0;
      if (weight === 0) continue;
      score += weight * (weights.get(word) ?? 0);
      hit.push(word);
    }
    if (hit.length > 0 && score >= minScore) matches.push({ skill, score, words: hit.slice(0, 8) });
  }
  return matches.sort((a, b) => b.score - a.score || (a.skill.name < b.skill.name ? -1 : 1));
}

/** Same stem, or one a prefix of the other when both have five letters or more (migrat/migration). */
function related(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 5 || b.length < 5) return false;
  return a.startsWith(b) || b.startsWith(a);
}

/** Stems of the words worth matching; `seen` (when given) maps each stem to its first spelling. */
function tokenize(text: string, stop: ReadonlySet<string>, minLength = 3, seen?: Map<string, string>): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const word of words) {
    if (word.length < minLength || word.length > 40 || stop.has(word) || /^\d+$/.test(word)) continue;
    const stemmed = stem(word);
    if (seen && !seen.has(stemmed)) seen.set(stemmed, word);
    out.push(stemmed);
  }
  return out;
}

/**
 * A light English stemmer: plurals, then one of -ation (→ -at), -ment, -ing, -ed, -ly; stems stay
 * at least 3 letters. With prefix matching (related) it makes migrate, migrating and migrations
 * meet at "migrat", deploys and deployment at "deploy".
 */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const [suffix, replacement] of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length + replacement.length >= 3) {
      w = w.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  return w;
}

/**
 * The keys of a YAML-ish front matter block: `key: value`, quoted values, `|` and `>` block
 * scalars and indented continuation lines. Enough for SKILL.md; anything else is ignored.
 */
function frontMatter(text: string): Record<string, string> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return {};
  const out: Record<string, string> = {};
  let key: string | undefined;
  let parts: string[] = [];
  const flush = (): void => {
    if (key !== undefined && !Object.prototype.hasOwnProperty.call(out, key)) out[key] = parts.join(" ").trim();
    key = undefined;
    parts = [];
  };
  for (const line of lines.slice(1, 200)) {
    if (/^(---|\.\.\.)\s*$/.test(line)) break;
    const pair = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (pair && !/^\s/.test(line)) {
      flush();
      key = pair[1].toLowerCase();
      const value = pair[2].trim();
      if (/^[|>][-+]?\d*$/.test(value)) continue; // a block scalar: its lines follow, indented
      parts.push(unquote(value));
    } else if (key !== undefined && /^\s+\S/.test(line)) {
      parts.push(line.trim());
    }
  }
  flush();
  return out;
}

function unquote(value: string): string {
  const noComment = /^["']/.test(value) ? value : value.replace(/\s+#.*$/, "");
  const double = /^"(.*)"$/.exec(noComment);
  if (double) return double[1].replace(/\\"/g, '"').replace(/\\n/g, " ").replace(/\\\\/g, "\\");
  const single = /^'(.*)'$/.exec(noComment);
  if (single) return single[1].replace(/''/g, "'");
  return noComment;
}

/**
 * Skill text lands in the model's context: one line, no control characters, bounded. (It is
 * the project's own text, which the agent reads anyway, but a SKILL.md must not be able to
 * pose as extra context lines.)
 */
function clean(value: string, max: number): string {
  const flat = value
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? flat.slice(0, max) : flat;
}

/** A workspace-relative (or absolute) directory, without "..", without a trailing slash. */
function skillsDir(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return DEFAULT_DIR;
  if (typeof value !== "string" || value.length > 1024) return undefined;
  const dir = value.replace(/^\.\/+/, "").replace(/\/+$/, "");
  if (dir === "" || dir.split("/").includes("..")) return undefined;
  return dir;
}

function unique(words: readonly string[]): string[] {
  return [...new Set(words)];
}

function intIn(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === "number" && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

function numberIn(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
