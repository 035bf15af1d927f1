/** @jsxImportSource hono/jsx */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { constantTimeEqual } from "../../core/text/constant-time.ts";
import type { ConsoleAuth, Session } from "./auth.ts";
import { documentOf } from "./pages/layout.tsx";
import { MessagePage } from "./pages/message.tsx";

export type ConsoleEnv = { Variables: { session: Session } };

/**
 * What every console response says to the browser: only this origin's own script, styles and
 * connections (no external request can be made, which also keeps the console working
 * air-gapped), no framing, no referrer to other origins (a login URL never leaves in one; not
 * "no-referrer", under which a browser sends `Origin: null` on the console's own forms), nothing cached.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  };
}

/** The session cookie's name: a browser sends every 127.0.0.1 cookie to every port, so each console has its own. */
export function cookieName(port: number): string {
  return `hookbox_console_${port}`;
}

/**
 * A Host header naming this listener, and nothing else: a page on another name that resolves
 * to 127.0.0.1 (DNS rebinding) is refused before anything else is looked at.
 */
export function hostCheck(port: () => number): MiddlewareHandler {
  return async (c, next) => {
    const allowed = [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`];
    if (!allowed.includes(c.req.header("host") ?? "")) return refuse(c, 403, "This console answers on its loopback address only.");
    await next();
  };
}

/** Everything but the public paths needs a live session's cookie. */
export function sessionCheck(auth: ConsoleAuth, port: () => number, isPublic: (path: string) => boolean): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    if (isPublic(c.req.path)) return next();
    const session = auth.session(getCookie(c, cookieName(port())));
    if (!session) return refuse(c, 401, "This console needs a login link: run `hookbox console` (or look for the URL in the daemon's log).");
    c.set("session", session);
    await next();
  };
}

/**
 * Every action (any method but GET and HEAD) comes from a page of this console: its Origin is
 * this origin (or, where a browser sends none, Sec-Fetch-Site says same-origin), and its form
 * carries the session's CSRF token. With the SameSite=Strict cookie that is three locks.
 */
export function actionCheck(): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const origin = c.req.header("origin");
    const expected = `http://${c.req.header("host") ?? ""}`;
    const sameOrigin = origin !== undefined ? origin === expected : c.req.header("sec-fetch-site") === "same-origin";
    if (!sameOrigin) return refuse(c, 403, "Refused: this action did not come from a page of this console.");
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const token = typeof form.csrf === "string" ? form.csrf : "";
    if (!constantTimeEqual(token, c.get("session").csrf))
      return refuse(c, 403, "Refused: the form's token does not match this session (reload the page and try again).");
    await next();
  };
}

export function refuse(c: Context, status: 401 | 403 | 404, message: string): Response | Promise<Response> {
  return c.html(documentOf(<MessagePage title="Hookbox console" message={message} />), status);
}
