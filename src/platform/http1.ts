import { BodyReader, concatBytes, declaredFraming, HttpProtocolError, indexOfBlankLine, MAX_HEAD_BYTES, parseHeaders } from "./http1-message.ts";
import { CONNECTION_FD_HEADER } from "./http-types.ts";
import type { HttpReply, HttpRequestInit } from "./types.ts";

/**
 * A minimal HTTP/1.1 client exchange: one request, one response, on a fresh connection that is
 * closed afterwards. `hookbox emit` pays for every microsecond of this on each agent event: Bun's
 * fetch costs ~70 µs more per request than a raw socket exchange and starts an HTTP client
 * thread. Only a daemon on the same machine is ever asked, but the response is still parsed
 * strictly (RFC 9112 §6.3): a malformed answer is an error, never a guess.
 */

/** Refuse response bodies larger than this (the largest answer, `GET /v1/runs`, is far smaller). */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;

export { concatBytes, HttpProtocolError } from "./http1-message.ts";

/** No whole answer within the exchange's timeoutMs. */
export class HttpTimeoutError extends Error {
  override readonly name = "HttpTimeoutError";
}

const encoder = new TextEncoder();

/** The request's bytes: `connection: close`, a content-length when there is a body. */
export function encodeRequest(init: HttpRequestInit, host: string): Uint8Array {
  const body = init.body !== undefined ? encoder.encode(init.body) : undefined;
  const headers: Record<string, string> = { host, connection: "close" };
  if (body) headers["content-type"] = "application/json";
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  if (body) headers["content-length"] = String(body.byteLength);
  let head = `${init.method} ${init.path} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(name + value)) throw new TypeError(`HTTP header ${JSON.stringify(name)} contains a line break`);
    head += `${name}: ${value}\r\n`;
  }
  if (/[\s]/.test(init.path) || /\s/.test(init.method)) throw new TypeError(`HTTP request line "${init.method} ${init.path}" contains white space`);
  const headBytes = encoder.encode(`${head}\r\n`);
  if (!body) return headBytes;
  const bytes = new Uint8Array(headBytes.byteLength + body.byteLength);
  bytes.set(headBytes);
  bytes.set(body, headBytes.byteLength);
  return bytes;
}

const WHAT = "the answer's";

/**
 * Reads one response from the bytes of a connection, as they arrive. `push` returns the reply
 * once it is complete; `end` is called when the peer closed and returns the reply if the close
 * completed it (a body delimited by the connection's end), else throws.
 */
export class HttpResponseReader {
  private buffered: Uint8Array = new Uint8Array(0);
  private status = 0;
  /** Set once the head is read: the body's reader, or "close" for a body the connection's end delimits. */
  private body: BodyReader | "close" | undefined;
  private readonly parts: Uint8Array[] = [];
  private closeBytes = 0;
  private reply: HttpReply | undefined;
  /** CONNECTION_FD_HEADER of the answer, as a number when it is one: unchecked, a hint for bun-peer.ts. */
  connectionFd: number | undefined;

  /** `expectBody` false for HEAD requests: the answer has no body, whatever its headers say. */
  constructor(private readonly expectBody = true) {}

  push(chunk: Uint8Array): HttpReply | undefined {
    if (this.reply) return this.reply;
    // A copy: a runtime may reuse the memory of the chunk it handed us once we return.
    this.buffered = this.buffered.byteLength === 0 ? chunk.slice() : concatBytes([this.buffered, chunk]);
    while (!this.body) {
      if (!this.readHead()) return undefined;
    }
    const input = this.buffered;
    this.buffered = new Uint8Array(0);
    if (this.body === "close") {
      this.closeBytes += input.byteLength;
      if (this.closeBytes > MAX_BODY_BYTES) throw new HttpProtocolError(`${WHAT} body is larger than ${MAX_BODY_BYTES} bytes`);
      this.parts.push(input);
      return undefined;
    }
    return this.body.push(input) ? this.complete() : undefined;
  }

  end(): HttpReply {
    if (this.reply) return this.reply;
    if (this.body === "close") return this.complete();
    throw new HttpProtocolError(
      this.body ? "the connection closed before the whole answer arrived" : "the connection closed before an HTTP answer arrived",
    );
  }

  /** Parse a status line and headers if they are all here; false when more bytes are needed. */
  private readHead(): boolean {
    const end = indexOfBlankLine(this.buffered);
    if (end < 0) {
      if (this.buffered.byteLength > MAX_HEAD_BYTES) throw new HttpProtocolError(`${WHAT} header is larger than ${MAX_HEAD_BYTES} bytes`);
      return false;
    }
    const lines = new TextDecoder().decode(this.buffered.subarray(0, end)).split("\r\n");
    this.buffered = this.buffered.subarray(end + 4);
    const status = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? "");
    if (!status) throw new HttpProtocolError(`not an HTTP/1.1 status line: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`);
    this.status = Number(status[1]);
    const headers = parseHeaders(lines.slice(1));
    const fd = Number(headers.get(CONNECTION_FD_HEADER)?.[0]);
    this.connectionFd = Number.isSafeInteger(fd) && fd >= 0 ? fd : undefined;
    // 1xx answers are interim (100 Continue): the real one follows, framing stays unknown.
    if (this.status < 200) return true;
    if (!this.expectBody || this.status === 204 || this.status === 304) {
      this.body = new BodyReader({ kind: "length", length: 0 }, 0, WHAT, () => undefined);
      return true;
    }
    const framing = declaredFraming(headers, MAX_BODY_BYTES, WHAT);
    this.body = framing ? new BodyReader(framing, MAX_BODY_BYTES, WHAT, (bytes) => this.parts.push(bytes)) : "close";
    return true;
  }

  private complete(): HttpReply {
    this.reply = { status: this.status, body: new TextDecoder().decode(concatBytes(this.parts)) };
    return this.reply;
  }
}

/** The events a connection delivers to an exchange. */
export interface ConnectionEvents {
  data(chunk: Uint8Array): void;
  /** The peer closed (or half-closed) the connection. */
  end(): void;
  error(error: Error): void;
}

/** A connection being opened by a runtime adapter: it writes all it is given, in order, once connected. */
export interface Connection {
  write(bytes: Uint8Array): void;
  /** Close now; no event follows. */
  destroy(): void;
}

/**
 * One request/response exchange over a connection that `open` starts. Settles exactly once: with
 * the reply, or with the first error (connect failure, a malformed answer, an early close, the
 * timeout). The connection is destroyed either way.
 */
export function exchange(open: (events: ConnectionEvents) => Connection, init: HttpRequestInit, host: string): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const reader = new HttpResponseReader(init.method.toUpperCase() !== "HEAD");
    // Set once open() returns: an error it reports synchronously settles before that.
    const link: { connection?: Connection } = {};
    let settled = false;
    const settle = (outcome: () => HttpReply): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      link.connection?.destroy();
      try {
        resolve(outcome());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const timer = setTimeout(
      () =>
        settle(() => {
          throw new HttpTimeoutError(`no answer within ${init.timeoutMs} ms`);
        }),
      init.timeoutMs,
    );
    let request: Uint8Array;
    try {
      request = encodeRequest(init, host);
    } catch (error) {
      return settle(() => {
        throw error;
      });
    }
    const connection = open({
      data: (chunk) => {
        if (settled) return;
        try {
          const reply = reader.push(chunk);
          if (reply) settle(() => reply);
        } catch (error) {
          settle(() => {
            throw error;
          });
        }
      },
      end: () => settle(() => reader.end()),
      error: (error) =>
        settle(() => {
          throw error;
        }),
    });
    link.connection = connection;
    if (settled) connection.destroy();
    else connection.write(request);
  });
}
