/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";

export type Section = "runs" | "approvals" | "hooks" | "shadow" | "health";

export interface Frame {
  readonly version: string;
  readonly pid: number;
  readonly pending: number;
  readonly csrf: string;
  /** Hook sets served with no guard but self-protect, each as its warning. */
  readonly unguarded: readonly string[];
}

const SECTIONS: readonly { id: Section; href: string; label: string }[] = [
  { id: "runs", href: "/", label: "Runs" },
  { id: "approvals", href: "/approvals", label: "Approvals" },
  { id: "hooks", href: "/hooks", label: "Hooks" },
  { id: "shadow", href: "/shadow", label: "Shadow" },
  { id: "health", href: "/health", label: "Health" },
];

/** A page as the browser must get it: with its doctype (standards mode), the JSX rendered to text (escaped). */
export function documentOf(page: unknown): string {
  return `<!doctype html>${String(page)}`;
}

/**
 * Every console page: navigation, the page, the footer. Readable without JavaScript; with it,
 * console.js follows `live` (the page's stream) and updates what changed.
 */
export function Layout(props: { title: string; section: Section; frame: Frame; live?: string; children: Child }) {
  const { frame } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Hookbox`}</title>
        <link rel="stylesheet" href="/assets/console.css" />
        <script src="/assets/console.js" defer></script>
      </head>
      <body data-live={props.live}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header>
          <span class="brand">Hookbox</span>
          <nav aria-label="Console">
            {SECTIONS.map((s) => (
              <a href={s.href} aria-current={s.id === props.section ? "page" : undefined}>
                {s.label}
                {s.id === "approvals" ? (
                  <span id="pending-count" class={frame.pending > 0 ? "badge waiting" : "badge"} aria-label={`${frame.pending} waiting`}>
                    {frame.pending}
                  </span>
                ) : null}
              </a>
            ))}
          </nav>
          <span id="live-status" role="status" aria-live="polite"></span>
        </header>
        <main id="main" tabindex={-1}>
          {frame.unguarded.length > 0 ? (
            <div class="alert" role="alert">
              <strong>No guard.</strong>
              {frame.unguarded.map((warning) => (
                <p>{warning}</p>
              ))}
            </div>
          ) : null}
          {props.children}
        </main>
        <footer>
          <span>
            Hookbox {frame.version} · daemon pid {frame.pid}
          </span>
          <form method="post" action="/logout">
            <input type="hidden" name="csrf" value={frame.csrf} />
            <button type="submit" class="link">
              Sign out
            </button>
          </form>
        </footer>
      </body>
    </html>
  );
}

/** A time as the person reads it, with the exact instant for machines and tooltips. */
export function When(props: { at: string }) {
  const date = new Date(props.at);
  if (Number.isNaN(date.getTime())) return <span>—</span>;
  return (
    <time datetime={props.at} title={props.at}>
      {date.toLocaleTimeString("en-GB", { hour12: false })}
    </time>
  );
}

/** A table's column headings. */
export function Columns(props: { names: readonly string[] }) {
  return (
    <thead>
      <tr>
        {props.names.map((name) => (
          <th scope="col">{name}</th>
        ))}
      </tr>
    </thead>
  );
}

export function DecisionBadge(props: { decision: string | undefined }) {
  const decision = props.decision ?? "unknown";
  return <span class={`badge decision-${decision}`}>{props.decision ?? "—"}</span>;
}

export function StatusBadge(props: { status: string }) {
  return <span class={`badge status-${props.status}`}>{props.status}</span>;
}

/** The last path segment, with the whole path on hover. */
export function ShortPath(props: { path: string | undefined }) {
  if (!props.path) return <span>—</span>;
  const name = props.path.split("/").filter(Boolean).at(-1) ?? props.path;
  return <span title={props.path}>{name}</span>;
}
