import type { HttpReply, HttpRequestInit } from "./types.ts";

/**
 * A minimal HTTP/1.1 client exchange: one request, one response, on a fresh connection that is
 * closed afterwards. `hookbox emit` pays for every microsecond of this on each agent event: Bun's
 * fetch costs ~70 µs more per request than a raw socket exchange and starts an HTTP client
 * thread. Only a daemon on the same machine is ever asked, but the response is still parsed
 * strictly (RFC 9112 §6.3): a malformed answer is an error, never a guess.
 */

/** Refuse response heads larger than this (a daemon answers with a few short headers). */
const MAX_HEAD_BYTES = 64 * 1024;
/** Refuse response bodies larger than this (the largest answer, `GET /v1/runs`, is far smaller). */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;

/** A response that does not follow HTTP/1.1: the exchange fails with this. */
export class HttpProtocolError extends Error {
  override readonly name = "HttpProtocolError";
}

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

type Framing =
  | { readonly kind: "length"; readonly remaining: number }
  /** Chunked: expecting a size line, `remaining` bytes of chunk data then CRLF, or the trailers. */
  | { readonly kind: "chunked"; readonly state: "size" | "trailers" }
  | { readonly kind: "chunked"; readonly state: "data"; readonly remaining: number }
  | { readonly kind: "close" };

/**
 * Reads one response from the bytes of a connection, as they arrive. `push` returns the reply
 * once it is complete; `end` is called when the peer closed and returns the reply if the close
 * completed it (a body delimited by the connection's end), else throws. Linear in the response:
 * only an incomplete line is ever carried over to the next chunk.
 */
export class HttpResponseReader {
  private buffered: Uint8Array = new Uint8Array(0);
  private status = 0;
  private framing: Framing | undefined;
  private readonly body: Uint8Array[] = [];
  private bodyBytes = 0;
  private reply: HttpReply | undefined;

  /** `expectBody` false for HEAD requests: the answer has no body, whatever its headers say. */
  constructor(private readonly expectBody = true) {}

  push(chunk: Uint8Array): HttpReply | undefined {
    if (this.reply) return this.reply;
    // A copy: a runtime may reuse the memory of the chunk it handed us once we return.
    this.buffered = this.buffered.byteLength === 0 ? chunk.slice() : concatBytes([this.buffered, chunk]);
    while (!this.framing) {
      if (!this.readHead()) return undefined;
    }
    return this.readBody();
  }

  end(): HttpReply {
    if (this.reply) return this.reply;
    if (this.framing?.kind === "close") return this.complete();
    throw new HttpProtocolError(this.framing ? "the connection closed before the whole answer arrived" : "the connection closed before an HTTP answer arrived");
  }

  /** Parse a status line and headers if they are all here; false when more bytes are needed. */
  private readHead(): boolean {
    const end = indexOfBlankLine(this.buffered);
    if (end < 0) {
      if (this.buffered.byteLength > MAX_HEAD_BYTES) throw new HttpProtocolError(`the answer's header is larger than ${MAX_HEAD_BYTES} bytes`);
      return false;
    }
    const lines = new TextDecoder().decode(this.buffered.subarray(0, end)).split("\r\n");
    this.buffered = this.buffered.subarray(end + 4);
    const status = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? "");
    if (!status) throw new HttpProtocolError(`not an HTTP/1.1 status line: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`);
    this.status = Number(status[1]);
    const headers = parseHeaders(lines.slice(1));
    // 1xx answers are interim (100 Continue): the real one follows, framing stays unknown.
    if (this.status >= 200) this.framing = framingOf(this.status, headers, this.expectBody);
    return true;
  }

  private readBody(): HttpReply | undefined {
    for (;;) {
      const framing = this.framing as Framing;
      switch (framing.kind) {
        case "close":
          this.take(this.buffered.byteLength);
          return undefined;
        case "length": {
          const n = Math.min(framing.remaining, this.buffered.byteLength);
          this.take(n);
          this.framing = { kind: "length", remaining: framing.remaining - n };
          return framing.remaining === n ? this.complete() : undefined;
        }
        case "chunked":
          if (!this.readChunked(framing)) return this.reply;
      }
    }
  }

  /** One step of the chunked transfer coding (RFC 9112 §7.1); false when more bytes are needed or the reply is complete. */
  private readChunked(framing: Extract<Framing, { kind: "chunked" }>): boolean {
    if (framing.state === "data") {
      const n = Math.min(framing.remaining, this.buffered.byteLength);
      this.take(n);
      if (framing.remaining > n) {
        this.framing = { kind: "chunked", state: "data", remaining: framing.remaining - n };
        return false;
      }
      if (this.buffered.byteLength < 2) {
        this.framing = { kind: "chunked", state: "data", remaining: 0 };
        return false;
      }
      if (this.buffered[0] !== 13 || this.buffered[1] !== 10) throw new HttpProtocolError("a chunk is not followed by CRLF");
      this.buffered = this.buffered.subarray(2);
      this.framing = { kind: "chunked", state: "size" };
      return true;
    }
    const lineEnd = indexOfCrlf(this.buffered);
    if (lineEnd < 0) {
      if (this.buffered.byteLength > MAX_HEAD_BYTES) throw new HttpProtocolError("a chunk size line or trailer is too long");
      return false;
    }
    const line = new TextDecoder().decode(this.buffered.subarray(0, lineEnd));
    this.buffered = this.buffered.subarray(lineEnd + 2);
    if (framing.state === "trailers") {
      // Trailer fields are ignored; the empty line ends the message.
      if (line !== "") return true;
      this.complete();
      return false;
    }
    const sizeText = (line.split(";")[0] ?? "").trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new HttpProtocolError(`invalid chunk size ${JSON.stringify(sizeText.slice(0, 20))}`);
    const size = parseInt(sizeText, 16);
    this.framing = size === 0 ? { kind: "chunked", state: "trailers" } : { kind: "chunked", state: "data", remaining: size };
    return true;
  }

  private take(n: number): void {
    this.addBody(this.buffered.subarray(0, n));
    this.buffered = this.buffered.subarray(n);
  }

  private addBody(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.bodyBytes += bytes.byteLength;
    if (this.bodyBytes > MAX_BODY_BYTES) throw new HttpProtocolError(`the answer's body is larger than ${MAX_BODY_BYTES} bytes`);
    this.body.push(bytes);
  }

  private complete(): HttpReply {
    this.reply = { status: this.status, body: new TextDecoder().decode(concatBytes(this.body)) };
    return this.reply;
  }
}

function parseHeaders(lines: readonly string[]): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    // Obsolete line folding and nameless lines are not HTTP/1.1 a client may accept (RFC 9112 §5.2).
    if (colon <= 0 || /^[ \t]/.test(line)) throw new HttpProtocolError(`invalid header line ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).toLowerCase();
    if (/\s/.test(name)) throw new HttpProtocolError(`invalid header name ${JSON.stringify(name.slice(0, 80))}`);
    const values = headers.get(name) ?? [];
    values.push(line.slice(colon + 1).trim());
    headers.set(name, values);
  }
  return headers;
}

/** How the body is delimited (RFC 9112 §6.3). */
function framingOf(status: number, headers: Map<string, string[]>, expectBody: boolean): Framing {
  if (!expectBody || status === 204 || status === 304) return { kind: "length", remaining: 0 };
  const encodings = headers.get("transfer-encoding");
  if (encodings) {
    const codings = encodings.join(",").split(",").map((c) => c.trim().toLowerCase()).filter(Boolean);
    if (codings.length !== 1 || codings[0] !== "chunked") throw new HttpProtocolError(`unsupported transfer-encoding ${JSON.stringify(encodings.join(", "))}`);
    return { kind: "chunked", state: "size" };
  }
  const lengths = headers.get("content-length");
  if (lengths) {
    const values = new Set(lengths.join(",").split(",").map((v) => v.trim()));
    const [value] = values;
    if (values.size !== 1 || value === undefined || !/^\d{1,15}$/.test(value)) throw new HttpProtocolError(`invalid content-length ${JSON.stringify(lengths.join(", "))}`);
    const length = Number(value);
    if (length > MAX_BODY_BYTES) throw new HttpProtocolError(`the answer's body is larger than ${MAX_BODY_BYTES} bytes`);
    return { kind: "length", remaining: length };
  }
  return { kind: "close" };
}

function indexOfBlankLine(bytes: Uint8Array): number {
  for (let i = bytes.indexOf(13); i >= 0 && i + 3 < bytes.byteLength; i = bytes.indexOf(13, i + 1)) {
    if (bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) return i;
  }
  return -1;
}

function indexOfCrlf(bytes: Uint8Array): number {
  for (let i = bytes.indexOf(13); i >= 0 && i + 1 < bytes.byteLength; i = bytes.indexOf(13, i + 1)) {
    if (bytes[i + 1] === 10) return i;
  }
  return -1;
}

/** The parts as one array (the part itself when there is one). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  let total = 0;
  for (const part of parts) total += part.byteLength;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
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
