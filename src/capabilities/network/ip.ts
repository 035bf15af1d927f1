/**
 * IP addresses as bytes, and the ranges a hook reaches only when granted by address: loopback,
 * private, link-local (169.254.169.254 is the cloud metadata service), multicast and the other
 * special-purpose blocks. Spellings are normalised before any check: the WHATWG URL parser
 * turns 2130706433, 0x7f000001 and 0177.0.0.1 into 127.0.0.1 (GHSA-v8fw-85r8-5m23 is Deno's
 * miss of exactly this), and IPv6 forms that embed an IPv4 address are judged by that address.
 */

export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9][0-9]{0,2})$/.test(part) && Number(part) <= 255)) return undefined;
  return parts.map(Number);
}

export function parseIpv6(input: string): number[] | undefined {
  let text = input.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  let tail: number[] = [];
  if (text.includes(".")) {
    const colon = text.lastIndexOf(":");
    const v4 = parseIpv4(text.slice(colon + 1));
    if (!v4) return undefined;
    tail = v4;
    text = text.slice(0, colon + 1);
    if (!text.endsWith("::")) text = text.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    for (const group of part.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
      const value = parseInt(group, 16);
      out.push(value >> 8, value & 0xff);
    }
    return out;
  };
  const head = groups(halves[0] as string);
  const rest = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !rest) return undefined;
  const known = head.length + rest.length + tail.length;
  // Without "::" all 16 bytes are written; with it, "::" stands for at least one zero group.
  if (halves.length === 1 ? known !== 16 : known > 14) return undefined;
  return [...head, ...new Array<number>(16 - known).fill(0), ...rest, ...tail];
}

/**
 * The canonical text of an address (IPv6 compressed, lower case; an IPv4-mapped IPv6 address as
 * its IPv4 form, so ::ffff:127.0.0.1 meets the rules written for 127.0.0.1), or undefined.
 */
export function canonicalIp(text: string): string | undefined {
  const bare = text.replace(/^\[|\]$/g, "");
  if (parseIpv4(bare)) return bare;
  const v6 = parseIpv6(bare);
  if (!v6) return undefined;
  if (v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff) return v6.slice(12).join(".");
  try {
    return new URL(`http://[${bare.replace(/%.*$/, "")}]/`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

type Range = readonly [prefix: readonly number[], bits: number, what: string];

const V4_RANGES: readonly Range[] = [
  [[0], 8, "an unspecified (this-network) address"],
  [[10], 8, "a private address"],
  [[100, 64], 10, "a carrier-grade NAT address"],
  [[127], 8, "a loopback address"],
  [[169, 254], 16, "a link-local address (cloud metadata lives here)"],
  [[172, 16], 12, "a private address"],
  [[192, 0, 0], 24, "an IETF special-purpose address"],
  [[192, 0, 2], 24, "a documentation address"],
  [[192, 88, 99], 24, "a 6to4 relay address"],
  [[192, 168], 16, "a private address"],
  [[198, 18], 15, "a benchmarking address"],
  [[198, 51, 100], 24, "a documentation address"],
  [[203, 0, 113], 24, "a documentation address"],
  [[224], 4, "a multicast address"],
  [[240], 4, "a reserved address"],
];

const V6_RANGES: readonly Range[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, "an unspecified address"],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, "a loopback address"],
  [[0, 0x64, 0xff, 0x9b, 0, 1], 48, "a local NAT64 address"],
  [[1, 0, 0, 0, 0, 0, 0, 0], 64, "a discard-only address"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "a documentation address"],
  [[0x20, 0x01, 0, 0], 23, "an IETF special-purpose address"],
  [[0xfc], 7, "a unique-local (private) address"],
  [[0xfe, 0x80], 10, "a link-local address"],
  [[0xfe, 0xc0], 10, "a site-local address"],
  [[0xff], 8, "a multicast address"],
];

function inRange(bytes: readonly number[], [prefix, bits]: Range): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    if (((bytes[bit >> 3] ?? 0) & mask) !== ((prefix[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

/** An IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(bytes: readonly number[]): number[] | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1)) return bytes.slice(12);
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return bytes.slice(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}

/** What kind of special-purpose address this is, or undefined for a public unicast address. */
export function specialAddress(address: string): string | undefined {
  const v4 = parseIpv4(address);
  if (v4) {
    if (v4.every((b) => b === 255)) return "the broadcast address";
    return V4_RANGES.find((range) => inRange(v4, range))?.[2];
  }
  const v6 = parseIpv6(address);
  if (!v6) return "not an IP address";
  const inner = embeddedIpv4(v6);
  if (inner) return specialAddress(inner.join("."));
  return V6_RANGES.find((range) => inRange(v6, range))?.[2];
}
