/**
 * Splits a byte/text stream into lines; the partial last line waits for the next chunk.
 * Linear in the stream: only the new chunk is searched for newlines, and a line that spans
 * many chunks is kept as a list of pieces and joined once (a 96 MB message line arriving in
 * 64 KiB chunks used to be re-copied and re-scanned on every chunk).
 */
export class LineSplitter {
  private pieces: string[] = [];
  private readonly decoder = new TextDecoder();

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline >= 0) {
      const head = text.slice(start, newline);
      const line = this.pieces.length === 0 ? head : this.pieces.join("") + head;
      this.pieces = [];
      if (line) this.onLine(line);
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    if (start < text.length) this.pieces.push(start === 0 ? text : text.slice(start));
  }
}

/** Keeps the last `max` characters written to it. */
export class Tail {
  private text = "";
  private readonly decoder = new TextDecoder();
  constructor(private readonly max = 4096) {}
  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    this.text = (this.text + text.slice(-this.max)).slice(-this.max);
  }
  toString(): string {
    return this.text;
  }
}
