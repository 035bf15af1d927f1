/** Text at the host boundary: UTF-8 in and out, cut on character boundaries, control characters out. */

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** Bytes to text; a multi-byte character cut at the end (a capped read) is dropped, not mangled. */
export function decodeUtf8(bytes: Uint8Array, options: { cutAtEnd?: boolean; cutAtStart?: boolean } = {}): string {
  let start = 0;
  let end = bytes.length;
  if (options.cutAtStart) {
    while (start < end && start < 3 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  }
  if (options.cutAtEnd && end > start) {
    // Walk back over continuation bytes to the lead byte; drop the character if it is incomplete.
    let lead = end - 1;
    while (lead > start && end - lead < 4 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
    const byte = bytes[lead] ?? 0;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (end - lead < need) end = lead;
  }
  return decoder.decode(bytes.subarray(start, end));
}

/** Lone surrogates (invalid UTF-16 from the guest) become U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** Terminal escapes (CSI, OSC …) and control characters other than newline and tab, removed. */
export function withoutControls(text: string): string {
  return text
    .replace(/\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)?|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]?/g, "")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
}
