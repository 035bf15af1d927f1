// src/decide/steps owns declarative hooks (the seed engine's context steps): running steps through a
// hook's own host calls, {{…}} templates, skip conditions and the result template. It must not
// import src/decide/chain, src/decide or any runtime: it is given the hook's `call` function.
export { runDeclarative, type DeclarativeRun } from "./declarative.ts";
export { render, type TemplateScope } from "./template.ts";
export type { StepResult } from "./run.ts";
