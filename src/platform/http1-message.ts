/**
 * What an HTTP/1.1 request and a response have in common on the wire (RFC 9112): header lines,
 * and a body delimited by content-length or the chunked coding. Shared by the client exchange
 * (http1.ts) and the daemon's own unix-socket server (http1-server.ts), both strict: a malformed
 * message is an error, never a guess.
 */

/** A message that does not follow HTTP/1.1. */
export class HttpProtocolError extends Error {
  override readonly name = "HttpProtocolError";
}

/** Longest head (start line and headers), and longest chunk-size or trailer line, accepted. */
export const MAX_HEAD_BYTES = 64 * 1024;

const EMPTY = new Uint8Array(0);

/** Header lines → lower-case name → values in order. Obsolete line folding is refused (RFC 9112 §5.2). */
export function parseHeaders(lines: readonly string[]): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0 || /^[ \t]/.test(line)) throw new HttpProtocolError(`invalid header line ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).toLowerCase();
    if (/\s/.test(name)) throw new HttpProtocolError(`invalid header name ${JSON.stringify(name.slice(0, 80))}`);
    const values = headers.get(name) ?? [];
    values.push(line.slice(colon + 1).trim());
    headers.set(name, values);
  }
  return headers;
}

/** How a body is delimited, once the head says so; "none" for a message that has none. */
export type BodyFraming = { readonly kind: "length"; readonly length: number } | { readonly kind: "chunked" };

/**
 * The framing the headers declare (RFC 9112 §6.3): `transfer-encoding: chunked` (the only coding
 * accepted), else one consistent content-length, else undefined. Both at once is refused: it is
 * how one message smuggles another past a proxy.
 */
export function declaredFraming(headers: Map<string, string[]>, maxBytes: number, what: string): BodyFraming | undefined {
  const encodings = headers.get("transfer-encoding");
  const lengths = headers.get("content-length");
  if (encodings) {
    if (lengths) throw new HttpProtocolError("both transfer-encoding and content-length are set");
    const codings = encodings
      .join(",")
      .split(",")
      .map((c) => c.trim().toLowerCase())
      .filter(Boolean);
    if (codings.length !== 1 || codings[0] !== "chunked")
      throw new HttpProtocolError(`unsupported transfer-encoding ${JSON.stringify(encodings.join(", "))}`);
    return { kind: "chunked" };
  }
  if (!lengths) return undefined;
  const values = new Set(
    lengths
      .join(",")
      .split(",")
      .map((v) => v.trim()),
  );
  const [value] = values;
  if (values.size !== 1 || value === undefined || !/^\d{1,15}$/.test(value))
    throw new HttpProtocolError(`invalid content-length ${JSON.stringify(lengths.join(", "))}`);
  const length = Number(value);
  if (length > maxBytes) throw new HttpProtocolError(`${what} body is larger than ${maxBytes} bytes`);
  return { kind: "length", length };
}

type BodyState =
  | { kind: "length"; remaining: number }
  | { kind: "chunk-size" }
  | { kind: "chunk-data"; remaining: number }
  | { kind: "chunk-end" }
  | { kind: "trailers" }
  | { kind: "done" };

/**
 * Reads one body as its bytes arrive, handing each piece of it to `onBytes`. Linear in the body:
 * only an incomplete chunk-size line (or chunk-ending CRLF) is carried over to the next push.
 */
export class BodyReader {
  private state: BodyState;
  private pending: Uint8Array = EMPTY;
  private total = 0;

  constructor(
    framing: BodyFraming,
    private readonly maxBytes: number,
    private readonly what: string,
    private readonly onBytes: (bytes: Uint8Array) => void,
  ) {
    this.state = framing.kind === "length" ? { kind: "length", remaining: framing.length } : { kind: "chunk-size" };
    if (this.state.kind === "length" && this.state.remaining === 0) this.state = { kind: "done" };
  }

  get done(): boolean {
    return this.state.kind === "done";
  }

  /** Consume the body's bytes from `input`: the bytes after the body once it is complete, else undefined (more are needed). */
  push(input: Uint8Array): Uint8Array | undefined {
    let buffer = this.pending.byteLength === 0 ? input : concatBytes([this.pending, input]);
    this.pending = EMPTY;
    for (;;) {
      const state = this.state;
      switch (state.kind) {
        case "done":
          return buffer;
        case "length":
        case "chunk-data": {
          const n = Math.min(state.remaining, buffer.byteLength);
          this.take(buffer.subarray(0, n));
          buffer = buffer.subarray(n);
          if (state.remaining > n) {
            this.state = { kind: state.kind, remaining: state.remaining - n };
            return undefined;
          }
          this.state = state.kind === "length" ? { kind: "done" } : { kind: "chunk-end" };
          continue;
        }
        case "chunk-end":
          if (buffer.byteLength < 2) {
            this.pending = buffer.slice();
            return undefined;
          }
          if (buffer[0] !== 13 || buffer[1] !== 10) throw new HttpProtocolError("a chunk is not followed by CRLF");
          buffer = buffer.subarray(2);
          this.state = { kind: "chunk-size" };
          continue;
        case "chunk-size":
        case "trailers": {
          const lineEnd = indexOfCrlf(buffer);
          if (lineEnd < 0) {
            if (buffer.byteLength > MAX_HEAD_BYTES) throw new HttpProtocolError("a chunk size line or trailer is too long");
            this.pending = buffer.slice();
            return undefined;
          }
          const line = new TextDecoder().decode(buffer.subarray(0, lineEnd));
          buffer = buffer.subarray(lineEnd + 2);
          if (state.kind === "trailers") {
            // Trailer fields are ignored; the empty line ends the message.
            if (line === "") this.state = { kind: "done" };
            continue;
          }
          const sizeText = (line.split(";")[0] ?? "").trim();
          if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new HttpProtocolError(`invalid chunk size ${JSON.stringify(sizeText.slice(0, 20))}`);
          const size = parseInt(sizeText, 16);
          this.state = size === 0 ? { kind: "trailers" } : { kind: "chunk-data", remaining: size };
          continue;
        }
      }
    }
  }

  private take(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.total += bytes.byteLength;
    if (this.total > this.maxBytes) throw new HttpProtocolError(`${this.what} body is larger than ${this.maxBytes} bytes`);
    this.onBytes(bytes);
  }
}

export function indexOfBlankLine(bytes: Uint8Array): number {
  for (let i = bytes.indexOf(13); i >= 0 && i + 3 < bytes.byteLength; i = bytes.indexOf(13, i + 1)) {
    if (bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) return i;
  }
  return -1;
}

export function indexOfCrlf(bytes: Uint8Array): number {
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
