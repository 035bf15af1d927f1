#!/usr/bin/env bash
# The same secret-path check as a classic command hook: bash + jq, one process per event.
path=$(jq -r '.tool_input.file_path // ""')
if [[ "$path" =~ (^|/)\.env(\.|$)|\.pem$|\.key$ ]]; then
  jq -n --arg p "$path" '{hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"deny",permissionDecisionReason:($p+" holds secrets")}}'
fi
