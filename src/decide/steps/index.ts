// src/decide/steps owns declarative hooks (the seed engine's steps, templates, conditions); it must not import src/decide/chain or src/decide.
// Running steps through a hook's own host calls, {{…}} templates, skip conditions and the result template. Nor any runtime:
// it is given the hook's `call` function.
export { runDeclarative, type DeclarativeRun } from "./declarative.ts";
export { render, type TemplateScope } from "./template.ts";
export type { StepResult } from "./run.ts";
