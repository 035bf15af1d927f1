import { BodyReader, concatBytes, declaredFraming, HttpProtocolError, indexOfBlankLine, MAX_HEAD_BYTES, parseHeaders } from "./http1-message.ts";
import { CONNECTION_FD_HEADER } from "./http-types.ts";
import type { ConnectionInfo, FetchHandler } from "./types.ts";

/**
 * The server side of HTTP/1.1 for one connection, for the daemon's unix socket on Bun: Bun.serve
 * does not tell a handler who is on the other end of a unix socket, so the daemon accepts on
 * Bun.listen (whose sockets carry their file descriptor, for the peer's credentials) and speaks
 * HTTP itself. Requests on a connection are answered in order (pipelined ones wait their turn);
 * a body that has all arrived is handed over whole, a larger one as a stream while it arrives.
 * Anything malformed gets a 400 (431, 413) and the connection is closed.
 */

/** Where the connection's bytes go: written in order; `end` closes once everything written is out. */
export interface ServerSocket {
  write(bytes: Uint8Array): void;
  end(): void;
}

/** Bodies larger than this are refused: the routes read at most 64 MiB of any body (src/serve/api/routes/body.ts). */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024 * 1024 + 1;

const encoder = new TextEncoder();
const WHAT = "the request's";
const REASONS: Readonly<Record<number, string>> = {
  100: "Continue",
  200: "OK",
  400: "Bad Request",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
};

type Phase = "head" | "body" | "answering" | "draining" | "closed";

/** How long the rest of a body answered early is read before the connection is closed anyway. */
const DRAIN_MS = 5000;

export class HttpServerConnection {
  private phase: Phase = "head";
  private inbox: Uint8Array = new Uint8Array(0);
  private body: BodyReader | undefined;
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  private streamCancelled = false;
  private keepAlive = true;
  private busy = false;

  constructor(
    private readonly socket: ServerSocket,
    private readonly handler: FetchHandler,
    private readonly info: ConnectionInfo,
    /** Called when a request starts and when its answer has been written (the listener counts requests in flight). */
    private readonly onBusy: (busy: boolean) => void = () => undefined,
  ) {}

  /** Whether a request is being answered on this connection now. */
  get answering(): boolean {
    return this.busy;
  }

  data(chunk: Uint8Array): void {
    if (this.phase === "closed") return;
    // A copy: the runtime may reuse the chunk's memory once this returns.
    this.inbox = this.inbox.byteLength === 0 ? chunk.slice() : concatBytes([this.inbox, chunk]);
    this.pump();
  }

  /** The peer closed its side: nothing more will arrive. */
  end(): void {
    if (this.phase === "body") this.endStream(new HttpProtocolError("the connection closed before the whole request body arrived"));
    if (!this.busy) this.close();
    else this.keepAlive = false;
  }

  /** Close now if idle, else once the request being answered is done (a listener shutting down). */
  closeWhenIdle(): void {
    this.keepAlive = false;
    if (!this.busy) this.close();
  }

  private close(): void {
    if (this.phase === "closed") return;
    this.phase = "closed";
    this.socket.end();
  }

  private pump(): void {
    try {
      while (this.phase !== "closed") {
        if (this.phase === "body" || this.phase === "draining") {
          const rest = (this.body as BodyReader).push(this.inbox);
          if (!rest) {
            this.inbox = new Uint8Array(0);
            return;
          }
          this.inbox = rest;
          this.endStream();
          this.body = undefined;
          // Answered before its body had all arrived: the rest is read, then the connection ends.
          if (this.phase === "draining") return this.close();
          this.phase = "answering";
        }
        if (this.phase === "answering" || !this.readHead()) return;
      }
    } catch (error) {
      this.refuse(error);
    }
  }

  /** Parse the next request's head and dispatch it; false when more bytes are needed. */
  private readHead(): boolean {
    const end = indexOfBlankLine(this.inbox);
    if (end < 0) {
      if (this.inbox.byteLength > MAX_HEAD_BYTES) throw new HeadTooLarge();
      return false;
    }
    if (end > MAX_HEAD_BYTES) throw new HeadTooLarge();
    const lines = new TextDecoder().decode(this.inbox.subarray(0, end)).split("\r\n");
    this.inbox = this.inbox.subarray(end + 4);
    const start = /^([A-Z]+) (\/\S*) HTTP\/1\.([01])$/.exec(lines[0] ?? "");
    if (!start) throw new HttpProtocolError(`not an HTTP/1.1 request line: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`);
    const [, method, target, minor] = start as unknown as [string, string, string, string];
    const headers = parseHeaders(lines.slice(1));
    const connection = (headers.get("connection") ?? []).join(",").toLowerCase();
    this.keepAlive = minor === "1" ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    const framing = declaredFraming(headers, MAX_REQUEST_BODY_BYTES, WHAT);
    const init: RequestInit & { duplex?: "half" } = {
      method,
      headers: [...headers].flatMap(([name, values]) => values.map((value): [string, string] => [name, value])),
    };
    if (framing && !(framing.kind === "length" && framing.length === 0)) {
      const parts: Uint8Array[] = [];
      const reader = new BodyReader(framing, MAX_REQUEST_BODY_BYTES, WHAT, (bytes) => (this.stream ? this.enqueue(bytes) : parts.push(bytes)));
      const rest = reader.push(this.inbox);
      if (rest) {
        // All of it is here already (the usual case): handed over whole.
        this.inbox = rest;
        init.body = concatBytes(parts);
      } else {
        this.inbox = new Uint8Array(0);
        this.body = reader;
        this.streamCancelled = false;
        init.body = new ReadableStream<Uint8Array>({
          start: (controller) => {
            this.stream = controller;
            for (const part of parts) controller.enqueue(part);
          },
          cancel: () => {
            this.streamCancelled = true;
          },
        });
        init.duplex = "half";
        if ((headers.get("expect") ?? []).some((value) => value.toLowerCase() === "100-continue"))
          this.socket.write(encoder.encode("HTTP/1.1 100 Continue\r\n\r\n"));
      }
    }
    this.phase = this.body ? "body" : "answering";
    void this.answer(new Request(`http://localhost${target}`, init), method === "HEAD");
    return true;
  }

  /** Close the body stream the handler reads (or error it); a stream the handler cancelled is left alone. */
  private endStream(error?: unknown): void {
    const stream = this.stream;
    this.stream = undefined;
    if (!stream || this.streamCancelled) return;
    try {
      if (error === undefined) stream.close();
      else stream.error(error);
    } catch {
      // already closed by its reader
    }
  }

  private enqueue(bytes: Uint8Array): void {
    if (this.streamCancelled) return;
    try {
      this.stream?.enqueue(bytes.slice());
    } catch {
      this.streamCancelled = true; // its reader is gone: the rest is dropped
    }
  }

  private async answer(request: Request, head: boolean): Promise<void> {
    this.busy = true;
    this.onBusy(true);
    let response: Response;
    try {
      response = await this.handler(request, this.info);
    } catch (error) {
      response = new Response(`internal error: ${error instanceof Error ? error.message : String(error)}\n`, { status: 500 });
    }
    let bytes: Uint8Array;
    try {
      bytes = await encodeResponse(response, head, this.keepAlive && this.phase === "answering", this.info.fd);
    } catch (error) {
      bytes = await encodeResponse(
        new Response(`internal error: ${error instanceof Error ? error.message : String(error)}\n`, { status: 500 }),
        head,
        false,
      );
      this.keepAlive = false;
    }
    this.busy = false;
    this.onBusy(false);
    if (this.phase === "closed") return;
    this.socket.write(bytes);
    // A handler that answered before its body had all arrived (a 413 on the announced length):
    // the rest is read and dropped before the connection is closed, or the client, still
    // sending, would see it reset instead of the answer. Bounded by the body cap and DRAIN_MS.
    if (this.phase === "body") {
      this.phase = "draining";
      this.streamCancelled = true;
      setTimeout(() => this.close(), DRAIN_MS).unref?.();
      return;
    }
    if (!this.keepAlive) return this.close();
    this.phase = "head";
    this.pump();
  }

  private refuse(error: unknown): void {
    if (this.phase === "closed") return;
    const status = error instanceof HeadTooLarge ? 431 : error instanceof HttpProtocolError && /larger than/.test(error.message) ? 413 : 400;
    this.endStream(error);
    const text = `${error instanceof Error ? error.message : String(error)}\n`;
    if (!this.busy)
      this.socket.write(
        encoder.encode(
          `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${encoder.encode(text).byteLength}\r\nconnection: close\r\n\r\n${text}`,
        ),
      );
    this.close();
  }
}

class HeadTooLarge extends HttpProtocolError {
  constructor() {
    super(`the request's header is larger than ${MAX_HEAD_BYTES} bytes`);
  }
}

/** A Response as HTTP/1.1 bytes: its headers, a content-length, `connection: close` when the connection ends with it, and the connection's descriptor where known. */
async function encodeResponse(response: Response, head: boolean, keepAlive: boolean, fd?: number): Promise<Uint8Array> {
  const body = head ? new Uint8Array(0) : new Uint8Array(await response.arrayBuffer());
  let text = `HTTP/1.1 ${response.status} ${response.statusText || REASONS[response.status] || "Status"}\r\n`;
  response.headers.forEach((value, name) => {
    if (name === "content-length" || name === "transfer-encoding" || name === "connection") return;
    if (/[\r\n]/.test(name + value)) throw new TypeError(`response header ${JSON.stringify(name)} contains a line break`);
    text += `${name}: ${value}\r\n`;
  });
  if (fd !== undefined) text += `${CONNECTION_FD_HEADER}: ${fd}\r\n`;
  text += `content-length: ${body.byteLength}\r\n${keepAlive ? "" : "connection: close\r\n"}\r\n`;
  const headBytes = encoder.encode(text);
  if (body.byteLength === 0) return headBytes;
  return concatBytes([headBytes, body]);
}
