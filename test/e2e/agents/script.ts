// The model-agnostic part of the mock model servers: what the scripted "model" says, turn by
// turn. Each mock (Anthropic, Gemini) renders these turns in its own wire format.

/** One content block the mock model emits. `tool_use` becomes a Gemini `functionCall` there. */
export type ModelBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "tool_use"; readonly name: string; readonly input: Readonly<Record<string, unknown>>; readonly id?: string };

/** One assistant turn. It ends with stop_reason "tool_use" if it calls a tool, else "end_turn". */
export interface ModelTurn {
  readonly blocks: readonly ModelBlock[];
}

/** A scripted step: a fixed turn, or one computed from the request (to react to tool results). */
export type ScriptStep<Request> = ModelTurn | ((request: Request) => ModelTurn);

export const say = (text: string): ModelTurn => ({ blocks: [{ type: "text", text }] });

export const useTool = (name: string, input: Readonly<Record<string, unknown>>, id?: string): ModelTurn => ({
  blocks: [{ type: "tool_use", name, input, ...(id ? { id } : {}) }],
});

/** Hands out the script's steps in order; once they run out, `after` answers every request. */
export class Script<Request> {
  private next = 0;

  constructor(
    private readonly steps: readonly ScriptStep<Request>[],
    private readonly after: (request: Request) => ModelTurn,
  ) {}

  answer(request: Request): ModelTurn {
    const step = this.steps[this.next];
    if (step === undefined) return this.after(request);
    this.next++;
    return typeof step === "function" ? step(request) : step;
  }
}
