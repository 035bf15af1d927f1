// project-context: at SessionStart, look at the workspace's top-level files (manifests, lock
// files, tool configs) and tell the model in a few lines what kind of project this is, how its
// tests run and which linters/formatters/type-checkers it uses. Read-only; silent when it finds
// nothing. Every value taken from a file is sanitised and clipped: a manifest is data, never
// instructions.

interface Ecosystem {
  /** "Node.js", "TypeScript", "Python" … with where it was seen. */
  label: string;
  tests: string[];
  tools: string[];
  frameworks: string[];
}

interface Ctx {
  files: Set<string>;
  hook: Hook;
  notes: string[];
}

interface Config {
  maxChars: number;
  includeScripts: boolean;
}

const MANIFEST_BYTES = 128 * 1024;
const JS_TESTS = ["vitest", "jest", "mocha", "ava", "tap", "jasmine", "uvu", "@playwright/test", "cypress", "karma"];
const JS_TOOLS: Record<string, string> = {
  eslint: "eslint",
  prettier: "prettier",
  "@biomejs/biome": "biome",
  oxlint: "oxlint",
  xo: "xo",
  standard: "standard",
  stylelint: "stylelint",
  typescript: "tsc",
  "lint-staged": "lint-staged",
  husky: "husky",
};
const JS_FRAMEWORKS: Record<string, string> = {
  next: "Next.js",
  react: "React",
  vue: "Vue",
  nuxt: "Nuxt",
  svelte: "Svelte",
  "@sveltejs/kit": "SvelteKit",
  astro: "Astro",
  "@angular/core": "Angular",
  "@remix-run/react": "Remix",
  express: "Express",
  fastify: "Fastify",
  hono: "Hono",
  "@nestjs/core": "NestJS",
  electron: "Electron",
  vite: "Vite",
};
/** Tool configuration files, by name pattern. */
const CONFIG_FILES: [RegExp, string, "tests" | "tools"][] = [
  [/^eslint\.config\.[cm]?[jt]s$|^\.eslintrc(\.(js|cjs|json|ya?ml))?$/, "eslint", "tools"],
  [/^\.prettierrc(\.(js|cjs|mjs|json|ya?ml|toml))?$|^prettier\.config\.[cm]?[jt]s$/, "prettier", "tools"],
  [/^biome\.jsonc?$/, "biome", "tools"],
  [/^\.stylelintrc(\..+)?$|^stylelint\.config\.[cm]?js$/, "stylelint", "tools"],
  [/^vitest\.(config|workspace)\.[cm]?[jt]s$/, "vitest", "tests"],
  [/^jest\.config\.[cm]?[jt]s(on)?$/, "jest", "tests"],
  [/^\.mocharc(\.(js|cjs|json|ya?ml))?$/, "mocha", "tests"],
  [/^playwright\.config\.[cm]?[jt]s$/, "@playwright/test", "tests"],
  [/^cypress\.config\.[cm]?[jt]s$/, "cypress", "tests"],
];

export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  const cfg = readConfig(hook.config);
  if (typeof event.cwd !== "string" || !event.cwd.startsWith("/") || event.cwd === "/") return { action: "continue" };

  let listing: string[];
  try {
    // hidden: the tools' dot files (.prettierrc, .gitlab-ci.yml …) are what it looks for.
    listing = await hook.listFiles(".", { maxFiles: 2000, hidden: true });
  } catch (error) {
    const { code, message } = describe(error);
    hook.log("warn", `cannot list the workspace (${code}): ${message}`);
    if (code !== "capability_denied") return { action: "continue" };
    return {
      action: "continue",
      user_message:
        `project-context cannot read the workspace: ${message}. It needs read access to the top-level files of the project ` +
        `(its YAML grants read: ["\${workspace}/**"]); check deny.read and ceilings.permissions.read in hookbox.yaml.`,
      user_message_level: "warning",
    };
  }
  const ctx: Ctx = { files: new Set(listing.filter((f) => !f.includes("/"))), hook, notes: [] };

  const ecosystems: Ecosystem[] = [];
  const node = await detectNode(ctx, cfg);
  if (node) ecosystems.push(node);
  for (const detect of [detectDeno, detectPython, detectRust, detectGo, detectRuby, detectJvm, detectPhp, detectOthers]) {
    const found = await detect(ctx);
    if (found) ecosystems.push(found);
  }
  const extras = await detectExtras(ctx);
  if (ecosystems.length === 0 && extras.length === 0) {
    hook.log("info", "nothing recognisable at the top of the workspace");
    return { action: "continue" };
  }

  const text = summary(ecosystems, extras, ctx.notes, cfg.maxChars);
  try {
    await hook.injectContext(text);
  } catch (error) {
    const { code, message } = describe(error);
    hook.log("warn", `injectContext failed (${code}): ${message}`);
    return { action: "continue", user_message: `project-context could not add context: ${message}`, user_message_level: "warning" };
  }
  return { action: "continue" };
}

function summary(ecosystems: Ecosystem[], extras: string[], notes: string[], maxChars: number): string {
  const uniq = (xs: string[]): string[] => [...new Set(xs)];
  const lines = ["Project context (detected by project-context from the files at the top of the workspace):"];
  if (ecosystems.length > 0) lines.push(`- Project: ${ecosystems.map((e) => e.label).join("; ")}`);
  const frameworks = uniq(ecosystems.flatMap((e) => e.frameworks));
  if (frameworks.length > 0) lines.push(`- Frameworks: ${frameworks.join(", ")}`);
  const tests = uniq(ecosystems.flatMap((e) => e.tests));
  lines.push(`- Tests: ${tests.length > 0 ? tests.join("; ") : "no test runner detected"}`);
  const tools = uniq(ecosystems.flatMap((e) => e.tools));
  if (tools.length > 0) lines.push(`- Lint/format/type-check: ${tools.join(", ")}`);
  if (extras.length > 0) lines.push(`- Also: ${uniq(extras).join(", ")}`);
  if (notes.length > 0) lines.push(`- Notes: ${uniq(notes).join("; ")}`);
  let text = lines.join("\n");
  if (text.length > maxChars) text = `${text.slice(0, maxChars - 1)}…`;
  return text;
}

// ---- Node.js / TypeScript ------------------------------------------------------------------

async function detectNode(ctx: Ctx, cfg: Config): Promise<Ecosystem | undefined> {
  const has = (f: string): boolean => ctx.files.has(f);
  if (!has("package.json") && !has("tsconfig.json")) return undefined;
  const eco: Ecosystem = { label: "", tests: [], tools: [], frameworks: [] };
  const pkg = has("package.json") ? parseJson(await read(ctx, "package.json"), "package.json", ctx) : undefined;
  const deps: Record<string, unknown> = {
    ...record(pkg?.dependencies),
    ...record(pkg?.devDependencies),
    ...record(pkg?.peerDependencies),
    ...record(pkg?.optionalDependencies),
  };
  const scripts = record(pkg?.scripts);
  const script = (name: string): string | undefined => (typeof scripts[name] === "string" ? (scripts[name] as string) : undefined);

  const pm = packageManager(ctx, pkg);
  const run = (name: string): string => (name === "test" && pm !== "bun" ? `${pm} test` : `${pm} run ${name}`);
  const typescript = "typescript" in deps || has("tsconfig.json");
  const name = typeof pkg?.name === "string" ? ` "${safe(pkg.name, 60)}"` : "";
  const esm = pkg?.type === "module" ? ", ESM" : "";
  const workspaces =
    pkg && (Array.isArray(pkg.workspaces) || record(pkg.workspaces).packages)
      ? ", monorepo (workspaces)"
      : has("pnpm-workspace.yaml")
        ? ", monorepo (pnpm workspace)"
        : "";
  eco.label = `${typescript ? "TypeScript/Node.js" : "Node.js"} (${pkg ? `package.json${name}` : "tsconfig.json"}${esm}${workspaces}; package manager ${pm})`;

  // Tests: the runner from dependencies or config files, and how this project runs them.
  const runners = new Set(JS_TESTS.filter((t) => t in deps));
  for (const [re, tool, kind] of CONFIG_FILES) if (kind === "tests" && [...ctx.files].some((f) => re.test(f))) runners.add(tool);
  const testScript = script("test");
  const realTest = testScript && !/no test specified/.test(testScript) ? testScript : undefined;
  if (realTest) {
    if (/\bnode\s+--test\b/.test(realTest)) runners.add("node:test");
    if (/\bbun\s+test\b/.test(realTest)) runners.add("bun test");
  }
  const shown = (r: string): string => (r === "@playwright/test" ? "playwright" : r);
  const unit = [...runners].filter((r) => r !== "@playwright/test" && r !== "cypress");
  const e2e = [...runners].filter((r) => r === "@playwright/test" || r === "cypress");
  if (unit.length > 0 || realTest) {
    const how = realTest ? ` — run \`${run("test")}\`${cfg.includeScripts ? ` (scripts.test: "${safe(realTest, 80)}")` : ""}` : "";
    eco.tests.push(`${unit.length > 0 ? unit.map(shown).join(" + ") : "npm script"}${how}`);
  }
  if (e2e.length > 0) eco.tests.push(`end-to-end: ${e2e.map(shown).join(", ")}`);

  // Tooling: from dependencies and config files; the scripts that run them.
  const tools = new Set(
    Object.keys(JS_TOOLS)
      .filter((d) => d in deps)
      .map((d) => JS_TOOLS[d] as string),
  );
  if (has("tsconfig.json")) tools.add("tsc");
  for (const [re, tool, kind] of CONFIG_FILES) if (kind === "tools" && [...ctx.files].some((f) => re.test(f))) tools.add(tool);
  const lint = script("lint");
  const typecheck = ["typecheck", "type-check", "check-types", "tsc", "types"].find((s) => script(s) !== undefined);
  const format = ["format", "fmt", "prettier"].find((s) => script(s) !== undefined);
  for (const tool of tools) {
    let how = "";
    if (tool === "tsc") how = typecheck ? ` (\`${run(typecheck)}\`)` : " (`npx tsc --noEmit`)";
    else if (lint && lint.includes(tool)) how = ` (\`${run("lint")}\`)`;
    else if (format && (script(format) as string).includes(tool)) how = ` (\`${run(format)}\`)`;
    eco.tools.push(`${tool}${how}`);
  }
  if (lint && !eco.tools.some((t) => t.includes("run lint"))) eco.tools.push(`lint script (\`${run("lint")}\`)`);

  eco.frameworks = Object.keys(JS_FRAMEWORKS)
    .filter((d) => d in deps)
    .map((d) => JS_FRAMEWORKS[d] as string);
  return eco;
}

function packageManager(ctx: Ctx, pkg: Record<string, unknown> | undefined): string {
  const declared = typeof pkg?.packageManager === "string" ? /^(npm|pnpm|yarn|bun)@/.exec(pkg.packageManager)?.[1] : undefined;
  if (declared) return declared;
  if (ctx.files.has("pnpm-lock.yaml")) return "pnpm";
  if (ctx.files.has("yarn.lock")) return "yarn";
  if (ctx.files.has("bun.lockb") || ctx.files.has("bun.lock")) return "bun";
  return "npm";
}

async function detectDeno(ctx: Ctx): Promise<Ecosystem | undefined> {
  const file = ["deno.json", "deno.jsonc"].find((f) => ctx.files.has(f));
  return file ? { label: `Deno (${file})`, tests: ["deno test"], tools: ["deno lint", "deno fmt", "deno check"], frameworks: [] } : undefined;
}

// ---- Python ----------------------------------------------------------------------------------

async function detectPython(ctx: Ctx): Promise<Ecosystem | undefined> {
  const has = (f: string): boolean => ctx.files.has(f);
  const requirements = [...ctx.files]
    .filter((f) => /^(requirements.*\.txt|.*-requirements\.txt)$/.test(f))
    .sort()
    .slice(0, 4);
  const markers = ["pyproject.toml", "setup.py", "setup.cfg", "Pipfile", "tox.ini", "pytest.ini", "conftest.py", "uv.lock", "poetry.lock"].filter(
    has,
  );
  if (markers.length === 0 && requirements.length === 0) return undefined;
  const pyproject = has("pyproject.toml") ? await read(ctx, "pyproject.toml") : "";
  const setupCfg = has("setup.cfg") ? await read(ctx, "setup.cfg") : "";
  const toxIni = has("tox.ini") ? await read(ctx, "tox.ini") : "";
  let reqText = "";
  for (const f of requirements) reqText += `\n${await read(ctx, f)}`;
  // Every distribution-name-like word, once: one pass instead of a regex per tool over the text.
  const words = new Set(`${pyproject}\n${setupCfg}\n${toxIni}\n${reqText}`.toLowerCase().match(/[a-z0-9][a-z0-9_.-]*/g) ?? []);
  const mentions = (name: string): boolean => words.has(name);
  const section = (name: string): boolean => new RegExp(`^\\[tool\\.${name.replace(/\./g, "\\.")}(\\]|\\.)`, "m").test(pyproject);

  const manager =
    has("uv.lock") || section("uv")
      ? "uv"
      : has("poetry.lock") || section("poetry")
        ? "poetry"
        : has("Pipfile")
          ? "pipenv"
          : section("pdm")
            ? "pdm"
            : section("hatch")
              ? "hatch"
              : undefined;
  const prefix =
    manager === "uv" ? "uv run " : manager === "poetry" ? "poetry run " : manager === "pipenv" ? "pipenv run " : manager === "pdm" ? "pdm run " : "";
  const name = /^\s*name\s*=\s*["']([^"'\n]{1,80})["']/m.exec(pyproject)?.[1];
  const where = [...markers.filter((m) => !["conftest.py", "tox.ini", "pytest.ini"].includes(m)), ...requirements].slice(0, 4).join(", ");
  const eco: Ecosystem = {
    label: `Python (${where}${name ? `, "${safe(name, 60)}"` : ""}${manager ? `; ${manager}` : ""})`,
    tests: [],
    tools: [],
    frameworks: [],
  };

  const pytest =
    section("pytest") || has("pytest.ini") || has("conftest.py") || /^\[(tool:)?pytest\]/m.test(`${setupCfg}\n${toxIni}`) || mentions("pytest");
  if (pytest) eco.tests.push(`pytest (\`${prefix}pytest\`)`);
  if (has("tox.ini")) eco.tests.push("tox (`tox`)");
  if (!pytest && mentions("nose2")) eco.tests.push("nose2");
  const tools: [string, boolean][] = [
    ["ruff", section("ruff") || has("ruff.toml") || has(".ruff.toml") || mentions("ruff")],
    ["black", section("black") || mentions("black")],
    ["isort", section("isort") || mentions("isort")],
    ["flake8", has(".flake8") || /^\[flake8\]/m.test(`${setupCfg}\n${toxIni}`) || mentions("flake8")],
    ["pylint", section("pylint") || has(".pylintrc") || mentions("pylint")],
    ["mypy", section("mypy") || has("mypy.ini") || has(".mypy.ini") || mentions("mypy")],
    ["pyright", section("pyright") || has("pyrightconfig.json") || mentions("pyright")],
    ["pre-commit", has(".pre-commit-config.yaml")],
  ];
  eco.tools = tools.filter(([, on]) => on).map(([t]) => t);
  const frameworks: [string, string][] = [
    ["django", "Django"],
    ["flask", "Flask"],
    ["fastapi", "FastAPI"],
    ["pandas", "pandas"],
    ["torch", "PyTorch"],
  ];
  eco.frameworks = frameworks.filter(([dep]) => mentions(dep)).map(([, label]) => label);
  return eco;
}

// ---- Rust, Go, Ruby, JVM, PHP, others ---------------------------------------------------------

async function detectRust(ctx: Ctx): Promise<Ecosystem | undefined> {
  if (!ctx.files.has("Cargo.toml")) return undefined;
  const toml = await read(ctx, "Cargo.toml");
  const name = /^\s*name\s*=\s*"([^"\n]{1,80})"/m.exec(toml)?.[1];
  const workspace = /^\[workspace\]/m.test(toml) ? ", workspace" : "";
  const tools = ["cargo clippy", "cargo fmt"];
  if (ctx.files.has("rustfmt.toml") || ctx.files.has(".rustfmt.toml")) tools[1] = "cargo fmt (rustfmt.toml)";
  if (ctx.files.has("clippy.toml") || ctx.files.has(".clippy.toml")) tools[0] = "cargo clippy (clippy.toml)";
  return { label: `Rust (Cargo.toml${name ? ` "${safe(name, 60)}"` : ""}${workspace})`, tests: ["cargo test"], tools, frameworks: [] };
}

async function detectGo(ctx: Ctx): Promise<Ecosystem | undefined> {
  if (!ctx.files.has("go.mod")) return undefined;
  const mod = await read(ctx, "go.mod");
  const module = /^module\s+(\S{1,120})/m.exec(mod)?.[1];
  const version = /^go\s+(\d+\.\d+(?:\.\d+)?)/m.exec(mod)?.[1];
  const tools = ["gofmt", "go vet"];
  if ([...ctx.files].some((f) => /^\.golangci\.(ya?ml|toml|json)$/.test(f))) tools.push("golangci-lint");
  return {
    label: `Go (go.mod${module ? ` ${safe(module, 80)}` : ""}${version ? `, go ${version}` : ""})`,
    tests: ["go test (`go test ./...`)"],
    tools,
    frameworks: [],
  };
}

async function detectRuby(ctx: Ctx): Promise<Ecosystem | undefined> {
  if (!ctx.files.has("Gemfile")) return undefined;
  const gemfile = await read(ctx, "Gemfile");
  const gem = (name: string): boolean => new RegExp(`^\\s*gem\\s+["']${name}["']`, "m").test(gemfile);
  const tests: string[] = [];
  if (gem("rspec") || gem("rspec-rails") || ctx.files.has(".rspec")) tests.push("rspec (`bundle exec rspec`)");
  if (gem("minitest")) tests.push("minitest");
  const tools = gem("rubocop") || ctx.files.has(".rubocop.yml") ? ["rubocop"] : [];
  if (gem("rails") && tests.length === 0) tests.push("rails test (`bin/rails test`)");
  return { label: "Ruby (Gemfile; bundler)", tests, tools, frameworks: gem("rails") ? ["Rails"] : [] };
}

async function detectJvm(ctx: Ctx): Promise<Ecosystem | undefined> {
  const has = (f: string): boolean => ctx.files.has(f);
  if (has("pom.xml"))
    return { label: "Java (pom.xml; Maven)", tests: [`JUnit via Maven (\`${has("mvnw") ? "./mvnw" : "mvn"} test\`)`], tools: [], frameworks: [] };
  const gradle = ["build.gradle.kts", "build.gradle"].find(has);
  if (gradle)
    return {
      label: `${gradle.endsWith(".kts") ? "Kotlin/JVM" : "JVM"} (${gradle}; Gradle)`,
      tests: [`Gradle (\`${has("gradlew") ? "./gradlew" : "gradle"} test\`)`],
      tools: [],
      frameworks: [],
    };
  return undefined;
}

async function detectPhp(ctx: Ctx): Promise<Ecosystem | undefined> {
  if (!ctx.files.has("composer.json")) return undefined;
  const composer = parseJson(await read(ctx, "composer.json"), "composer.json", ctx);
  const deps = { ...record(composer?.require), ...record(composer?.["require-dev"]) };
  const tests =
    "phpunit/phpunit" in deps || ctx.files.has("phpunit.xml") || ctx.files.has("phpunit.xml.dist")
      ? ["phpunit (`vendor/bin/phpunit`)"]
      : "pestphp/pest" in deps
        ? ["pest (`vendor/bin/pest`)"]
        : [];
  const tools = [
    ["phpstan/phpstan", "phpstan"],
    ["friendsofphp/php-cs-fixer", "php-cs-fixer"],
    ["squizlabs/php_codesniffer", "phpcs"],
    ["vimeo/psalm", "psalm"],
  ]
    .filter(([d]) => (d as string) in deps)
    .map(([, t]) => t as string);
  return {
    label: "PHP (composer.json)",
    tests,
    tools,
    frameworks: "laravel/framework" in deps ? ["Laravel"] : "symfony/framework-bundle" in deps ? ["Symfony"] : [],
  };
}

async function detectOthers(ctx: Ctx): Promise<Ecosystem | undefined> {
  const files = [...ctx.files];
  if (files.some((f) => /\.(sln|csproj|fsproj)$/.test(f)))
    return { label: ".NET (solution/project file)", tests: ["dotnet test"], tools: ["dotnet format"], frameworks: [] };
  if (ctx.files.has("mix.exs")) return { label: "Elixir (mix.exs)", tests: ["ExUnit (`mix test`)"], tools: ["mix format"], frameworks: [] };
  if (ctx.files.has("Package.swift")) return { label: "Swift (Package.swift)", tests: ["swift test"], tools: [], frameworks: [] };
  if (ctx.files.has("CMakeLists.txt"))
    return {
      label: "C/C++ (CMakeLists.txt; CMake)",
      tests: ["ctest"],
      tools: ctx.files.has(".clang-format") ? ["clang-format"] : [],
      frameworks: [],
    };
  return undefined;
}

/** CI, containers, task runners: worth a mention, not an ecosystem. */
async function detectExtras(ctx: Ctx): Promise<string[]> {
  const out: string[] = [];
  try {
    const workflows = await ctx.hook.listFiles(".github/workflows", { extensions: [".yml", ".yaml"], maxFiles: 100 });
    if (workflows.length > 0) out.push(`GitHub Actions (${workflows.length} workflow${workflows.length === 1 ? "" : "s"})`);
  } catch {
    // No .github/workflows: nothing to say.
  }
  const has = (f: string): boolean => ctx.files.has(f);
  if (has(".gitlab-ci.yml")) out.push("GitLab CI");
  if (has("Dockerfile") || [...ctx.files].some((f) => /^(docker-)?compose\.ya?ml$|^docker-compose\.ya?ml$/.test(f))) out.push("Docker");
  if (has("Makefile")) {
    const makefile = await read(ctx, "Makefile");
    const targets = [...makefile.matchAll(/^(test|check|lint|fmt|format|build|typecheck)\s*:/gm)].map((m) => m[1] as string);
    out.push(`Makefile${targets.length > 0 ? ` (targets: ${[...new Set(targets)].join(", ")})` : ""}`);
  }
  if (has("justfile") || has("Justfile")) out.push("just");
  if (has("Taskfile.yml") || has("Taskfile.yaml")) out.push("Task (Taskfile)");
  if (has(".pre-commit-config.yaml")) out.push("pre-commit hooks");
  const nodeVersion = has(".nvmrc") ? await read(ctx, ".nvmrc", 64) : has(".node-version") ? await read(ctx, ".node-version", 64) : "";
  const version = /^\s*v?(\d+(?:\.\d+){0,2}|lts\/\w+)\s*$/m.exec(nodeVersion)?.[1];
  if (version) out.push(`Node ${version} (${has(".nvmrc") ? ".nvmrc" : ".node-version"})`);
  return out;
}

// ---- helpers ---------------------------------------------------------------------------------

/** A file's text, "" when it cannot be read (gone, too odd); a refusal is noted, not thrown. */
async function read(ctx: Ctx, path: string, maxBytes = MANIFEST_BYTES): Promise<string> {
  try {
    return await ctx.hook.readFile(path, { maxBytes });
  } catch (error) {
    const { code, message } = describe(error);
    ctx.hook.log("info", `readFile ${path} (${code}): ${message}`);
    if (code === "capability_denied") ctx.notes.push(`${path} could not be read (refused by the operator's rules)`);
    return "";
  }
}

function parseJson(text: string, file: string, ctx: Ctx): Record<string, unknown> | undefined {
  if (text === "") return undefined;
  // Deeply nested JSON would exhaust the sandbox's stack in JSON.parse: real manifests are shallow.
  if (nestedDeeperThan(text, 64)) {
    ctx.notes.push(`${file} is nested too deeply to read`);
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    ctx.notes.push(`${file} is not valid JSON${text.length >= MANIFEST_BYTES - 4 ? " (or larger than 128 KiB)" : ""}`);
    return undefined;
  }
}

/** Brackets nested deeper than `limit`, outside strings. Native regex passes do the bulk (QuickJS interprets loops). */
function nestedDeeperThan(text: string, limit: number): boolean {
  const brackets = text.replace(/"(?:[^"\\]|\\.)*"/g, "").replace(/[^[\]{}]+/g, "");
  let depth = 0;
  for (let i = 0; i < brackets.length; i++) {
    const c = brackets[i];
    if (c === "[" || c === "{") {
      if (++depth > limit) return true;
    } else depth--;
  }
  return false;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A value from a file, made harmless for the context: one line, no control characters, no backticks, clipped. */
function safe(value: unknown, max: number): string {
  const text = String(value)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/`/g, "'")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describe(error: unknown): { code: string; message: string } {
  const e = error as { code?: unknown; message?: unknown } | null;
  return { code: typeof e?.code === "string" ? e.code : "error", message: typeof e?.message === "string" ? e.message : String(error) };
}

function readConfig(c: Readonly<Record<string, unknown>>): Config {
  const max = typeof c.max_chars === "number" && Number.isFinite(c.max_chars) ? Math.min(9000, Math.max(200, Math.round(c.max_chars))) : 2000;
  return { maxChars: max, includeScripts: c.include_scripts !== false };
}
