#!/usr/bin/env python3
"""Ask Hookbox before running a tool: an orchestrator's side of the contract (docs/orchestrators.md).

Standard library only: http.client over the daemon's unix socket (hookbox serve).

    python3 hookbox_tool.py write notes.md "hello"      # asks PreToolUse, writes, asks PostToolUse
    python3 hookbox_tool.py bash "ls -la"
    python3 hookbox_tool.py --socket /path/hookbox.sock write .env "API_KEY=1"

Prints one JSON line: {"decision", "ran", "reason", "context", "result"}; exits 0 when the tool
ran, 3 when Hookbox refused it, 4 when Hookbox could not be asked (the tool is then NOT run).
"""
import argparse
import http.client
import json
import os
import socket
import subprocess
import sys


def default_socket():
    """Where `hookbox emit` and `hookbox serve` look: HOOKBOX_SOCKET, $XDG_RUNTIME_DIR/hookbox, ~/.hookbox/run."""
    if os.environ.get("HOOKBOX_SOCKET"):
        return os.path.abspath(os.environ["HOOKBOX_SOCKET"])
    if os.environ.get("XDG_RUNTIME_DIR"):
        return os.path.join(os.environ["XDG_RUNTIME_DIR"], "hookbox", "hookbox.sock")
    return os.path.join(os.path.expanduser("~"), ".hookbox", "run", "hookbox.sock")


class UnixHTTPConnection(http.client.HTTPConnection):
    """HTTP/1.1 over a unix socket: http.client with its connect() replaced."""

    def __init__(self, path, timeout):
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.unix_path)


class HookboxError(Exception):
    """A failure with a stable code: the daemon's own (error.code) or daemon_unavailable / protocol."""

    def __init__(self, code, message, status=None):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.status = code, message, status


class Hookbox:
    def __init__(self, socket_path=None, timeout_s=130.0):
        self.socket_path = socket_path or default_socket()
        self.timeout_s = timeout_s

    def evaluate(self, event):
        """POST /v1/events/{event_type}: the event in, the decision (DecisionV1) out."""
        body = json.dumps(event).encode("utf-8")
        headers = {"content-type": "application/json", "x-hookbox-timeout-ms": str(int(self.timeout_s * 1000))}
        connection = UnixHTTPConnection(self.socket_path, self.timeout_s)
        try:
            connection.request("POST", f"/v1/events/{event['event_type']}", body=body, headers=headers)
            response = connection.getresponse()
            status, text = response.status, response.read().decode("utf-8")
        except (FileNotFoundError, ConnectionRefusedError) as error:
            raise HookboxError("daemon_unavailable", f"no Hookbox daemon answers on {self.socket_path} ({error}); start one with `hookbox serve`")
        except OSError as error:
            raise HookboxError("daemon_unavailable", f"talking to {self.socket_path} failed: {error}")
        finally:
            connection.close()
        try:
            answer = json.loads(text)
        except ValueError:
            raise HookboxError("protocol", f"{self.socket_path} answered {status} with something that is not JSON", status)
        if status != 200:
            error = answer.get("error", {}) if isinstance(answer, dict) else {}
            raise HookboxError(error.get("code", "protocol"), error.get("message", f"HTTP {status}"), status)
        if not isinstance(answer, dict) or answer.get("v") != 1 or answer.get("decision") not in ("allow", "deny", "ask"):
            raise HookboxError("protocol", "the answer is not a DecisionV1", status)
        return answer


TOOLS = {"write": "Write", "bash": "Bash"}


def tool_input(tool, args, cwd):
    if tool == "write":
        return {"file_path": os.path.join(cwd, args[0]), "content": args[1]}
    return {"command": args[0]}


def run(tool, tool_in, cwd):
    if tool == "write":
        with open(tool_in["file_path"], "w", encoding="utf-8") as f:
            f.write(tool_in["content"])
        return f"wrote {len(tool_in['content'])} characters"
    done = subprocess.run(tool_in["command"], shell=True, cwd=cwd, capture_output=True, text=True, timeout=60)
    return done.stdout


def main():
    parser = argparse.ArgumentParser(description="Ask Hookbox before running a tool.")
    parser.add_argument("--socket", help="the daemon's socket (default: where hookbox emit looks)")
    parser.add_argument("--session", default="python-example")
    parser.add_argument("tool", choices=sorted(TOOLS))
    parser.add_argument("args", nargs="+")
    options = parser.parse_args()
    cwd = os.getcwd()
    hookbox = Hookbox(options.socket)
    name, given = TOOLS[options.tool], tool_input(options.tool, options.args, cwd)
    event = {"event_type": "PreToolUse", "session_id": options.session, "cwd": cwd, "agent": "python-example", "tool_name": name, "tool_input": given}
    try:
        decision = hookbox.evaluate(event)
    except HookboxError as error:
        # Fail closed: a tool Hookbox could not be asked about is not run.
        print(json.dumps({"decision": None, "ran": False, "reason": str(error), "code": error.code}))
        return 4
    context = [c["content"] for c in decision["context_injections"]]
    if decision["decision"] != "allow":
        # deny: do not run; the reason goes to the model as the tool's result. ask: a held approval
        # already became allow or deny, so "ask" here means nobody can approve: treat it as deny.
        print(json.dumps({"decision": decision["decision"], "ran": False, "reason": decision.get("reason"), "context": context}))
        return 3
    # allow: run with the hooks' final input when one modified it (data), else our own.
    final = decision.get("data") or given
    result = run(options.tool, final, cwd)
    after = dict(event, event_type="PostToolUse", tool_input=final, tool_response=result)
    try:
        context += [c["content"] for c in hookbox.evaluate(after)["context_injections"]]
    except HookboxError as error:
        context.append(f"(PostToolUse not evaluated: {error})")
    print(json.dumps({"decision": "allow", "ran": True, "reason": decision.get("reason"), "context": context, "result": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
