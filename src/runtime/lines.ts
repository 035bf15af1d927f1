/** Splits a byte/text stream into lines; the partial last line waits for the next chunk. */
export class LineSplitter {
  private buffer = "";
  private readonly decoder = new TextDecoder();

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Uint8Array | string): void {
    this.buffer += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    let newline = this.buffer.indexOf("\n");
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line) this.onLine(line);
      newline = this.buffer.indexOf("\n");
    }
  }
}

/** Keeps the last `max` characters written to it. */
export class Tail {
  private text = "";
  constructor(private readonly max = 4096) {}
  push(chunk: Uint8Array | string): void {
    this.text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    if (this.text.length > this.max) this.text = this.text.slice(-this.max);
  }
  toString(): string {
    return this.text;
  }
}
