// guard-secrets: refuse tool calls that would write, edit, move or delete secret files (.env*,
// keys, credentials), system paths (/etc, /usr …), or climb out of the workspace with "..".
// It reads only the event: no file, command, network or environment access. The paths a call
// touches come from hookbox:paths (symbolic links resolved by the host, in link_targets); a
// Bash command's writes from hookbox:shell's shWrites (globs, variables, interpreters, git,
// find — see the README for what it cannot see).
import {
  SH_MAX_COMMANDS,
  type ShPattern,
  type ShTarget,
  shAnalyze,
  shCommandText,
  shMayMatchGlob,
  shNormalize,
  shNormalizeRelative,
  shPatternLiteral,
  shPatternText,
  shResolve,
  shWrites,
} from "hookbox:shell";
import { type Labelled, eventPaths, firstMatch, patchPaths, within } from "hookbox:paths";

/** Secret files by glob: a glob without "/" matches the file name, one with "/" the path. */
const SECRET_PATTERNS: readonly [string, string][] = [
  [".env", "dotenv files hold environment secrets"],
  [".env.*", "dotenv files hold environment secrets"],
  [".env-*", "dotenv files hold environment secrets"],
  [".env_*", "dotenv files hold environment secrets"],
  [".envrc", "direnv files export environment secrets"],
  ["*.env", "dotenv files hold environment secrets"],
  ["*.pem", "PEM files hold private keys and certificates"],
  ["*.key", "key files hold private keys"],
  ["*.p12", "PKCS#12 files hold private keys"],
  ["*.pfx", "PKCS#12 files hold private keys"],
  ["*.jks", "Java keystores hold private keys"],
  ["*.keystore", "keystores hold private keys"],
  ["*.kdbx", "KeePass databases hold passwords"],
  ["*.ppk", "PuTTY key files hold private keys"],
  ["id_rsa", "SSH private key"],
  ["id_dsa", "SSH private key"],
  ["id_ecdsa", "SSH private key"],
  ["id_ed25519", "SSH private key"],
  ["id_ecdsa_sk", "SSH private key"],
  ["id_ed25519_sk", "SSH private key"],
  ["**/.ssh/**", "~/.ssh holds keys and authorized_keys"],
  ["**/.gnupg/**", "~/.gnupg holds private keys"],
  ["**/.aws/credentials", "AWS credentials"],
  ["**/.aws/config", "AWS configuration (credential sources)"],
  ["**/.docker/config.json", "Docker registry credentials"],
  ["**/.kube/config", "Kubernetes credentials"],
  ["**/.config/gh/hosts.yml", "GitHub CLI tokens"],
  ["**/.cargo/credentials", "crates.io token"],
  ["**/.cargo/credentials.toml", "crates.io token"],
  ["**/.gem/credentials", "RubyGems API key"],
  ["credentials.json", "credential files hold secrets"],
  ["client_secret*.json", "OAuth client secrets"],
  ["application_default_credentials.json", "Google Cloud credentials"],
  ["service-account*.json", "cloud service-account keys"],
  ["secrets.json", "secret files hold secrets"],
  ["secrets.yml", "secret files hold secrets"],
  ["secrets.yaml", "secret files hold secrets"],
  [".netrc", ".netrc holds login passwords"],
  ["_netrc", "_netrc holds login passwords"],
  [".pgpass", ".pgpass holds database passwords"],
  [".git-credentials", "git credential store"],
  [".htpasswd", "password hashes"],
  [".vault-token", "Vault token"],
  [".boto", "cloud storage credentials"],
  [".s3cfg", "S3 credentials"],
  ["terraform.tfvars", "Terraform variables often hold secrets"],
];

/** Files that are only secret when they carry a token or password (a registry URL alone is fine). */
const TOKEN_FILES = [".npmrc", ".pypirc", ".yarnrc", ".yarnrc.yml", ".gemrc", "pip.conf", "pip.ini", ".bunfig.toml", "bunfig.toml"];
const TOKEN_TEXT =
  /(_authToken|_auth\b|_password|npmAuthToken|npmAuthIdent|password|passwd|token|secret|api[_-]?key)\s*\\?["']?\s*[:=]|:\/\/[^/\s:@"']+:[^/\s@"']+@/i;

/** dotenv templates hold placeholders, not secrets: .env.example, .env.local.sample … */
const TEMPLATE_PARTS = new Set(["example", "examples", "sample", "template", "tmpl", "tpl", "dist"]);

const SYSTEM_PATHS = [
  "/etc",
  "/usr",
  "/bin",
  "/sbin",
  "/boot",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/sys",
  "/proc",
  "/dev",
  "/root",
  "/var/lib",
  "/var/spool",
  "/opt/homebrew/etc",
  "/System",
  "/Library",
  "/private/etc",
  "/private/var/db",
  "/Applications",
  "c:/windows",
  "c:/program files",
  "c:/program files (x86)",
];
/** Devices every shell writes to in passing: `2>/dev/null` is not a system write. */
const SYSTEM_EXCEPTIONS: Labelled = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/fd/**"].map(
  (g) => [g, "device"] as const,
);

const MAX_PATH_CHARS = 4096;
/** Token files are small; a larger write to one is refused rather than scanned at length. */
const MAX_TOKEN_SCAN = 256 * 1024;

interface Config {
  patterns: [string, string][];
  exceptions: [string, string][];
  systemPaths: string[];
  blockTraversal: boolean;
  checkBash: boolean;
  maxCommandChars: number;
}

interface Finding {
  path: string;
  why: string;
  rule: "secret" | "system" | "traversal" | "unknown" | "archive" | "unreadable";
}

export default function handler(event: HookEvent, hook: Hook): HookResult {
  const cfg = readConfig(hook.config);
  const workspace = typeof event.cwd === "string" && event.cwd.startsWith("/") && event.cwd !== "/" ? shNormalize(event.cwd) : undefined;
  const input: Record<string, unknown> = isRecord(event.tool_input) ? event.tool_input : {};
  const tool = typeof event.tool_name === "string" ? event.tool_name : "";
  const finding = tool === "Bash" ? bashFinding(event, input, workspace, cfg) : toolFinding(event, input, tool, workspace, cfg);
  if (!finding) return { action: "continue" };
  hook.log("info", `${finding.rule}: ${finding.path} (${finding.why})`);
  return deny(finding, tool);
}

/** Write, Edit, MCP tools …: the paths the call names, and where those that are symbolic links lead. */
function toolFinding(
  event: HookEvent,
  input: Record<string, unknown>,
  tool: string,
  workspace: string | undefined,
  cfg: Config,
): Finding | undefined {
  // What the call would write, read only for token files (.npmrc …): a big Write stays cheap.
  const content = (): string => safeJson(input);
  const linkedFrom = new Map<string, string>();
  if (isRecord(event.link_targets))
    for (const [named, real] of Object.entries(event.link_targets)) if (typeof real === "string") linkedFrom.set(real, named);
  for (const path of eventPaths(event)) {
    const finding = check(path, workspace, workspace, content, cfg, "all");
    const link = linkedFrom.get(path);
    if (finding) return link !== undefined ? { ...finding, path: `${link} (a symbolic link to ${finding.path})` } : finding;
  }
  return undefined;
}

/** A Bash command: every file it may write (shWrites), and the files a patch in it names (apply_patch <<EOF …). */
function bashFinding(event: HookEvent, input: Record<string, unknown>, workspace: string | undefined, cfg: Config): Finding | undefined {
  if (!cfg.checkBash) return undefined;
  const command = shCommandText(input.command);
  if (command.length > cfg.maxCommandChars) {
    return {
      path: `a ${command.length}-character command`,
      why: `it is longer than max_command_chars (${cfg.maxCommandChars}), too long to check`,
      rule: "unreadable",
    };
  }
  // The reader stops at SH_MAX_COMMANDS simple commands: a write beyond them would go unread.
  if (shAnalyze(command, workspace).reduce((n, p) => n + p.commands.length, 0) >= SH_MAX_COMMANDS) {
    return {
      path: `a command of more than ${SH_MAX_COMMANDS} simple commands`,
      why: "the shell reader stops there, so the rest could not be checked",
      rule: "unreadable",
    };
  }
  const content = (): string => command;
  const seen = new Set<string>();
  for (const path of patchPaths(command)) {
    const finding = check(path, workspace, workspace, content, cfg, "all");
    if (finding) return { ...finding, why: `${finding.why}; a patch in the command names it` };
  }
  // A redirection or a write into a symbolic link writes where it leads: the host resolved them (link_targets).
  if (isRecord(event.link_targets)) {
    for (const [named, real] of Object.entries(event.link_targets)) {
      const finding = typeof real === "string" ? check(real, workspace, workspace, content, cfg, "all") : undefined;
      if (finding) return { ...finding, path: `${named} (a symbolic link to ${finding.path})` };
    }
  }
  for (const target of shWrites(command, workspace)) {
    const key = `${target.cwd ?? ""}\0${target.raw}\0${target.by}\0${target.patterns.map(shPatternText).join("|")}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const finding = target.contents
      ? extractionFinding(target, workspace, cfg)
      : target.path !== undefined
        ? literalFinding(target, workspace, content, cfg)
        : patternFinding(target, workspace, content, cfg);
    if (finding)
      return target.by === "a redirection" || finding.rule === "unreadable" ? finding : { ...finding, path: `${finding.path} (${target.by})` };
  }
  return undefined;
}

/** A target that is one plain path: judged as a tool's path is, and as a directory whose files it may hold. */
function literalFinding(target: ShTarget, workspace: string | undefined, content: () => string, cfg: Config): Finding | undefined {
  const rules = target.named === "mentions" ? "secrets" : target.named === "writes" ? "no-traversal" : "all";
  const finding = check(target.path as string, target.cwd, workspace, content, cfg, rules);
  if (finding) return target.named ? { ...finding, why: `${target.by} names it, and ${finding.why}` } : finding;
  return target.named ? undefined : contentsFinding(target, cfg);
}

/**
 * An archive extracted (or a tree copied) into a directory: its members are not known here. The
 * directory is judged as a path (a system path, ~/.ssh …), and refused when it is where secrets
 * live whatever the archive holds: the project's root or a directory above it (its .env files),
 * the home directory (~/.ssh, ~/.aws …) or / (members with absolute names).
 */
function extractionFinding(target: ShTarget, workspace: string | undefined, cfg: Config): Finding | undefined {
  for (const pattern of target.patterns) {
    const dir = shPatternLiteral(pattern);
    if (dir === undefined) {
      const hit = patternFinding(target, workspace, () => "", cfg);
      if (hit) return hit;
      continue;
    }
    const direct = check(dir, target.cwd, workspace, () => "", cfg, "no-traversal") ?? contentsFinding({ ...target, patterns: [pattern] }, cfg);
    if (direct) return direct;
    const why =
      dir === "/"
        ? "its members may be written anywhere (absolute names)"
        : dir === "~"
          ? "the home directory holds ~/.ssh, ~/.aws and other credentials"
          : workspace !== undefined && (dir === workspace || workspace.startsWith(`${dir}/`))
            ? `${dir === workspace ? "the project's root" : `${dir}, which holds the project,`} is where its .env files and keys live`
            : undefined;
    if (why)
      return {
        path: target.raw,
        why: `it writes whatever the archive or source holds into ${dir}, and ${why}; the files it writes cannot be known from the command`,
        rule: "archive",
      };
  }
  return undefined;
}

/** `rm -rf ~/.ssh`, `mv ~/.aws x`: a directory whose files a protected path names. */
function contentsFinding(target: ShTarget, cfg: Config): Finding | undefined {
  for (const pattern of target.patterns) {
    const inside: ShPattern = [...pattern, { k: "c", c: "/" }, { k: "star", dot: true }];
    const hit = protectedBy(inside, cfg, true);
    if (hit) return { path: target.raw, why: `it holds files that ${hit[1]} (pattern "${hit[0]}")`, rule: "secret" };
  }
  return undefined;
}

/** A target with globs or values the command line does not give: protected if it may name a protected file. */
function patternFinding(target: ShTarget, workspace: string | undefined, content: () => string, cfg: Config): Finding | undefined {
  const raw = target.raw;
  const forms = pathForms(raw.replace(/\\/g, "/"), target.cwd !== undefined ? shResolve(target.cwd, raw) : undefined, workspace);
  if (firstMatch(cfg.exceptions, forms) || (target.unknown.length === 0 && isTemplate(forms.name))) return undefined;
  const unknown =
    target.unknown.length > 0
      ? ` — ${target.unknown.map((u) => `\`${u}\``).join(", ")} ${target.unknown.length > 1 ? "are" : "is"} not set in this command, so the file it names cannot be known`
      : "";
  const shown = target.patterns.map(shPatternText).join(", ");
  const named = target.named ? `${target.by} names ${raw}, and ` : "";
  for (const pattern of target.patterns) {
    const hit = protectedBy(pattern, cfg, false);
    if (hit)
      return {
        path: raw,
        why: `${named}it may be a protected file${unknown || ` (${shown})`}: ${hit[1]} (pattern "${hit[0]}")`,
        rule: target.unknown.length > 0 ? "unknown" : "secret",
      };
  }
  if (target.named === "mentions") return undefined;
  for (const pattern of target.patterns) {
    const system = cfg.systemPaths.find(
      (dir) => shMayMatchGlob(pattern, dir.replace(/\/+$/, "")) || shMayMatchGlob(pattern, `${dir.replace(/\/+$/, "")}/**`),
    );
    if (system)
      return {
        path: raw,
        why: `it may be a system path (under ${system})${unknown || ` (${shown})`}`,
        rule: target.unknown.length > 0 ? "unknown" : "system",
      };
  }
  for (const pattern of target.patterns) {
    if (TOKEN_FILES.some((name) => shMayMatchGlob(pattern, `**/${name}`)) && TOKEN_TEXT.test(content().slice(0, MAX_TOKEN_SCAN))) {
      return {
        path: raw,
        why: `it may be a token file (${TOKEN_FILES.join(", ")}) and the command carries a token or password${unknown}`,
        rule: "secret",
      };
    }
  }
  return undefined;
}

/** The first protected glob a pattern may match: name globs against its last component, path globs against its path. */
function protectedBy(pattern: ShPattern, cfg: Config, pathsOnly: boolean): readonly [string, string] | undefined {
  for (const [glob, why] of cfg.patterns) {
    const isPath = glob.includes("/");
    if (pathsOnly && !isPath) continue;
    if (shMayMatchGlob(pattern, glob.startsWith("/") ? glob : `**/${glob}`)) return [glob, why];
  }
  return undefined;
}

function deny(f: Finding, tool: string): HookResult {
  const what = tool === "Bash" ? "This command writes to" : `${tool || "This tool"} on`;
  const exception = `If this file must be writable, the operator can add an exception in hookbox.yaml: hooks: { guard-secrets: { config: { exceptions: [${JSON.stringify(baseName(f.path) || f.path)}] } } }`;
  const fix =
    f.rule === "secret"
      ? `${/env/i.test(baseName(f.path)) ? "Put placeholders in a template such as .env.example instead, or ask the user to make this change." : "Ask the user to make this change themselves."} ${exception}`
      : f.rule === "system"
        ? "System files are outside the project; ask the user to make this change themselves."
        : f.rule === "traversal"
          ? "Use a path inside the project (without .. that climbs out of it)."
          : f.rule === "unknown"
            ? "Name the file in the command itself (or set the variable in the same command), so it can be checked."
            : f.rule === "archive"
              ? "Extract it into a directory of its own inside the project (tar -C vendor …, unzip -d vendor …), or list its members first (tar -tf, unzip -l) and extract the ones you need by name."
              : "Split the command, or write the file with the Write tool.";
  return {
    action: "deny",
    reason: `guard-secrets: ${what} ${f.path}: blocked because ${f.why}. ${fix}`,
    user_message: `guard-secrets blocked a ${tool || "tool"} call on ${f.path} (${f.rule}).`,
    user_message_level: "warning",
  };
}

/**
 * One plain path. `rules`: "all"; "no-traversal" (a path named in code that writes: its ".."
 * is not the shell's); "secrets" (a path code only mentions: only secret files count).
 */
function check(
  raw: string,
  cwd: string | undefined,
  workspace: string | undefined,
  content: () => string,
  cfg: Config,
  rules: "all" | "no-traversal" | "secrets",
): Finding | undefined {
  if (raw.length > MAX_PATH_CHARS)
    return { path: `${raw.slice(0, 80)}…`, why: `the path is longer than ${MAX_PATH_CHARS} characters`, rule: "unreadable" };
  if (raw.includes("\0")) return { path: JSON.stringify(raw.slice(0, 200)), why: "the path contains a NUL character", rule: "unreadable" };
  const path = trimName(raw.replace(/\\/g, "/").trim());
  const drive = /^[A-Za-z]:\//.test(path);
  const resolved = drive ? path.toLowerCase() : shResolve(cwd, path);
  const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;

  if (rules === "all" && cfg.blockTraversal && path.split("/").includes("..")) {
    const outside = resolved === undefined ? shNormalizeRelative(path).startsWith("..") : workspace !== undefined && !within(resolved, workspace);
    if (outside)
      return {
        path: shown,
        why: `the path climbs out of the workspace with ".."${resolved ? ` (it resolves to ${resolved})` : ""}`,
        rule: "traversal",
      };
  }

  const forms = pathForms(path, resolved, workspace);
  const excepted = (): boolean => firstMatch(cfg.exceptions, forms) !== undefined;
  const absolute = resolved !== undefined && (resolved.startsWith("/") || drive) ? resolved : undefined;
  if (absolute && rules !== "secrets") {
    const system = cfg.systemPaths.find((p) => within(absolute.toLowerCase(), p.toLowerCase().replace(/\/+$/, "")));
    if (system && firstMatch(SYSTEM_EXCEPTIONS, forms) === undefined && !excepted()) {
      return { path: shown, why: `${absolute} is a system path (under ${system})`, rule: "system" };
    }
  }

  const name = forms.name;
  if (isTemplate(name) || excepted()) return undefined;
  const hit = firstMatch(cfg.patterns, forms);
  if (hit) return { path: shown, why: `${hit[1]} (pattern "${hit[0]}")`, rule: "secret" };
  if (TOKEN_FILES.includes(name) && rules !== "secrets") {
    const text = content();
    if (text.length > MAX_TOKEN_SCAN)
      return { path: shown, why: `the new content of ${name} is too large to check for tokens (over ${MAX_TOKEN_SCAN} characters)`, rule: "secret" };
    if (TOKEN_TEXT.test(text)) return { path: shown, why: `${name} would hold a token or password`, rule: "secret" };
  }
  return undefined;
}

interface Forms {
  /** The file name, lower-cased, glob characters of a shell word removed (.env* → .env). */
  name: string;
  /** Paths to match "a/b" globs against: workspace-relative, absolute without "/", as written. */
  paths: string[];
  absolute: string | undefined;
}

function pathForms(path: string, resolved: string | undefined, workspace: string | undefined): Forms {
  const clean = (s: string): string => s.toLowerCase().replace(/[*?[\]]+/g, "");
  const paths = new Set<string>();
  if (resolved !== undefined) {
    if (workspace !== undefined && within(resolved, workspace) && resolved !== workspace) paths.add(resolved.slice(workspace.length + 1));
    paths.add(resolved.replace(/^\//, ""));
  }
  paths.add(shNormalizeRelative(path));
  const cleaned = [...paths].flatMap((p) => [p.toLowerCase(), clean(p)]);
  const last = (resolved ?? path).replace(/\/+$/, "");
  return {
    name: clean(last.slice(last.lastIndexOf("/") + 1)),
    paths: [...new Set(cleaned)],
    absolute: resolved?.startsWith("/") ? resolved.toLowerCase() : undefined,
  };
}

/** .env.example, .env.local.sample, example.env, .env-template: placeholders, not secrets. */
function isTemplate(name: string): boolean {
  if (!name.startsWith(".env") && !name.endsWith(".env")) return false;
  return name.split(/[.\-_]/).some((part) => TEMPLATE_PARTS.has(part));
}

/** Windows ignores trailing dots and spaces in a name (".env. " is .env there): match without them. */
function trimName(path: string): string {
  const cut = path.lastIndexOf("/") + 1;
  const name = path.slice(cut);
  if (name === "." || name === "..") return path;
  const trimmed = name.replace(/[. ]+$/, "");
  return trimmed === "" ? path : path.slice(0, cut) + trimmed;
}

function baseName(p: string): string {
  const trimmed = p.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value).slice(0, 2_000_000);
  } catch {
    return "";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0 && v.length <= 1024).slice(0, 256) : [];
}

function readConfig(c: Readonly<Record<string, unknown>>): Config {
  const defaults = c.use_default_patterns === false ? [] : SECRET_PATTERNS.map(([g, why]): [string, string] => [g, why]);
  const extra = strings(c.extra_patterns).map((g): [string, string] => [g, "it matches a protected pattern configured for guard-secrets"]);
  const systemPaths = Array.isArray(c.system_paths) ? strings(c.system_paths) : SYSTEM_PATHS;
  const max = typeof c.max_command_chars === "number" && c.max_command_chars > 0 ? c.max_command_chars : 50_000;
  return {
    patterns: [...defaults, ...extra],
    exceptions: strings(c.exceptions).map((g): [string, string] => [g, "exception"]),
    systemPaths: [...systemPaths, ...strings(c.extra_system_paths)],
    blockTraversal: c.block_traversal !== false,
    checkBash: c.check_bash !== false,
    maxCommandChars: max,
  };
}
