// A minimal keep-alive HTTP/1.1 client over one unix-socket connection (Bun.connect): what an
// orchestrator holding a connection to the daemon pays per request, without fetch's own cost
// (~70 µs per request on these machines). One request at a time per connection; answers must
// carry Content-Length (Bun.serve's always do).

interface Pending {
  readonly resolve: (reply: { status: number; text: string }) => void;
  readonly reject: (error: Error) => void;
}

export interface RawHttpConnection {
  post(path: string, body: string): Promise<{ status: number; text: string }>;
  close(): void;
}

const decoder = new TextDecoder();
const HEADER_END = Buffer.from("\r\n\r\n");

export async function connectRawHttp(socketPath: string): Promise<RawHttpConnection> {
  let buffer: Buffer = Buffer.alloc(0);
  let pending: Pending | undefined;
  const onData = (chunk: Uint8Array): void => {
    buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
    const end = buffer.indexOf(HEADER_END);
    if (end < 0 || !pending) return;
    const head = decoder.decode(buffer.subarray(0, end));
    const status = Number(head.slice(9, 12));
    const match = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!match) return pending.reject(new Error(`no content-length in ${head}`));
    const length = Number(match[1]);
    if (buffer.length < end + 4 + length) return;
    const text = decoder.decode(buffer.subarray(end + 4, end + 4 + length));
    buffer = buffer.subarray(end + 4 + length);
    const done = pending;
    pending = undefined;
    done.resolve({ status, text });
  };
  const socket = await Bun.connect({
    unix: socketPath,
    socket: {
      data: (_socket, chunk) => onData(chunk),
      close: () => pending?.reject(new Error("connection closed")),
      error: (_socket, error) => pending?.reject(error),
    },
  });
  socket.setNoDelay?.(true);
  return {
    post: (path, body) =>
      new Promise((resolve, reject) => {
        if (pending) return reject(new Error("one request at a time per connection"));
        pending = { resolve, reject };
        socket.write(
          `POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      }),
    close: () => socket.end(),
  };
}
