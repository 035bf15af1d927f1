import type { DefaultCeiling, KindLayers } from "../grants/layers.ts";
import { listLayer } from "../grants/layers.ts";
import type { GrantSources } from "../grants/sources.ts";
import { canonicalIp } from "./ip.ts";

/** One `net` entry: "example.com", "*.example.com" (subdomains only), "example.com:8443", an IP. */
export interface HostRule {
  readonly raw: string;
  /** Lower case, no trailing dot; an IP in canonical form (IPv6 without brackets). */
  readonly host: string;
  readonly wildcard: boolean;
  /** Undefined: any port. */
  readonly port: number | undefined;
}

export interface NetAccess {
  readonly host: string;
  readonly port: number;
}

export interface NetPolicy {
  readonly declared: readonly HostRule[];
  readonly approval: readonly HostRule[] | undefined;
  readonly ceiling: readonly HostRule[] | undefined;
  readonly deny: readonly HostRule[];
}

/** A host as compared: the URL parser's spelling (which normalises IPs), lower case, no trailing dot. */
export function hostKey(hostname: string): string {
  const bare = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  return canonicalIp(bare) ?? bare;
}

export function parseHostRule(raw: string): { ok: true; rule: HostRule } | { ok: false; error: string } {
  const wildcard = raw.startsWith("*.");
  const rest = wildcard ? raw.slice(2) : raw;
  // host:port, [v6]:port, or a bare IPv6 address (several colons, no port).
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(rest);
  const hostText = match ? match[1] : canonicalIp(rest) ? rest : undefined;
  if (hostText === undefined) return { ok: false, error: 'expected a host name, "*.domain", "host:port" or an IP address' };
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return { ok: false, error: "port must be between 1 and 65535" };
  let hostname: string;
  try {
    hostname = new URL(`http://${hostText.includes(":") && !hostText.startsWith("[") ? `[${hostText}]` : hostText}/`).hostname;
  } catch {
    return { ok: false, error: "not a valid host name or address" };
  }
  const host = hostKey(hostname);
  if (wildcard && canonicalIp(host)) return { ok: false, error: "a wildcard applies to domain names, not addresses" };
  return { ok: true, rule: { raw, host, wildcard, port } };
}

export function ruleMatches(rule: HostRule, access: NetAccess): boolean {
  if (rule.port !== undefined && rule.port !== access.port) return false;
  return rule.wildcard ? access.host.endsWith(`.${rule.host}`) : access.host === rule.host;
}

export function parseNetPolicy(sources: GrantSources, errors: string[]): NetPolicy {
  const parseList = (list: readonly string[], where: string): HostRule[] =>
    list.flatMap((raw, index) => {
      const parsed = parseHostRule(raw);
      if (parsed.ok) return [parsed.rule];
      errors.push(`${where}[${index}] ${JSON.stringify(raw)}: ${parsed.error}`);
      return [];
    });
  const approval = sources.approval?.net;
  const ceiling = sources.ceiling?.net;
  return {
    declared: parseList(sources.declared.net, `${sources.file}: permissions.net`),
    approval: approval && parseList(approval, `hookbox.yaml hooks.${sources.hookId}.permissions.net`),
    ceiling: ceiling && parseList(ceiling, "hookbox.yaml ceilings.permissions.net"),
    deny: parseList(sources.deny.net, "hookbox.yaml deny.net"),
  };
}

const AIR_GAPPED: DefaultCeiling<NetAccess> = {
  refuse: () => "hooks have no network unless the operator approves a host (air-gapped by default)",
};

export function netLayers(policy: NetPolicy): KindLayers<NetAccess> {
  const layer = (rules: readonly HostRule[]) => listLayer(rules, ruleMatches, (rule) => rule.raw);
  return {
    declared: layer(policy.declared),
    approval: policy.approval && layer(policy.approval),
    ceiling: policy.ceiling && layer(policy.ceiling),
    defaultCeiling: AIR_GAPPED,
    deny: layer(policy.deny),
  };
}
