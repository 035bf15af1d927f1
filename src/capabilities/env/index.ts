// src/capabilities/env owns hook.env and its grants (secret-looking names need approval); it must not import above src/capabilities.
import { arity, stringArg } from "../args.ts";
import type { Capability } from "../capability.ts";
import { deniedByVerdict, renderCall, yamlList } from "../denied.ts";
import { decide } from "../grants/layers.ts";
import { envLayers, parseEnvPolicy, type EnvPolicy } from "./policy.ts";

/**
 * `env`: hook.env(name) → the daemon's value of a granted variable, or undefined when it is
 * unset. A name not granted throws PermissionDenied (it never silently reads as unset).
 */
export const envCapability: Capability<EnvPolicy> = {
  name: "env",
  parse: (sources) => parseEnvPolicy(sources),
  summary: (policy) => policy.declared.map((name) => `env ${name}`),
  contribute: (policy, scope) => ({
    env: async (args, call) => {
      arity("env", args, 1);
      const name = stringArg("env", "name", args[0], 256);
      call.target = name;
      const verdict = decide(envLayers(policy), name);
      if (!verdict.ok) throw deniedByVerdict(scope.hookId, renderCall("env", [name]), verdict, { kind: "env", yaml: yamlList([name]) });
      return Object.hasOwn(scope.deps.env, name) ? scope.deps.env[name] : undefined;
    },
  }),
};
