/** A one-time login token lives this long: long enough to click the printed URL, short enough to be worthless in a scrollback later. */
export const LOGIN_TOKEN_TTL_MS = 10 * 60_000;
/** A session ends after this long without a request (and with the daemon). */
export const SESSION_IDLE_MS = 12 * 3600_000;
/** Sessions kept at most; the least recently used go first. */
const MAX_SESSIONS = 32;
const MAX_LOGIN_TOKENS = 16;

export interface Session {
  readonly id: string;
  /** Sent back in every form: an action without it is refused (with the Origin check and SameSite=Strict). */
  readonly csrf: string;
  lastSeen: number;
}

/** 256 bits from the platform's CSPRNG, as hex. */
export function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Who may use the console. The daemon prints (or `hookbox console` asks for) a URL carrying a
 * one-time login token; redeeming it creates a session whose id becomes an HttpOnly,
 * SameSite=Strict cookie. Tokens and sessions live in this process only: a restarted daemon
 * knows none of them.
 */
export class ConsoleAuth {
  private readonly loginTokens = new Map<string, number>();
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly now: () => number = Date.now) {}

  mintLoginToken(): string {
    this.forgetExpired();
    const token = randomToken();
    this.loginTokens.set(token, this.now() + LOGIN_TOKEN_TTL_MS);
    while (this.loginTokens.size > MAX_LOGIN_TOKENS) this.loginTokens.delete(this.loginTokens.keys().next().value as string);
    return token;
  }

  /** A new session for a valid, unused, unexpired token; the token is spent whatever happens. */
  redeem(token: string): Session | undefined {
    const expires = this.loginTokens.get(token);
    this.loginTokens.delete(token);
    if (expires === undefined || expires < this.now()) return undefined;
    const session: Session = { id: randomToken(), csrf: randomToken(), lastSeen: this.now() };
    this.sessions.set(session.id, session);
    while (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    return session;
  }

  session(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.lastSeen + SESSION_IDLE_MS < this.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    session.lastSeen = this.now();
    // Most recently used last: the eviction above drops the idle ones first.
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  end(id: string): void {
    this.sessions.delete(id);
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [token, expires] of this.loginTokens) if (expires < now) this.loginTokens.delete(token);
  }
}
