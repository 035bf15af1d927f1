# The same secret-path check as a python3 command hook.
import json, re, sys
event = json.load(sys.stdin)
path = str((event.get("tool_input") or {}).get("file_path") or "")
if re.search(r"(^|/)\.env(\.|$)|\.pem$|\.key$", path):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": f"{path} holds secrets"}}))
