import { describe, expect, it } from "vitest";
import { platformSupport } from "../../src/platform/platform.ts";

// Each platform Hookbox ships for (README's download table), faked: the selection is data, so the
// fallbacks of the platforms this machine cannot run are still checked here.
describe("the platform selection", () => {
  it.each([
    ["linux", "x64"],
    ["linux", "arm64"],
  ])(
    "%s %s: every Linux mechanism (prctl, SO_PEERCRED, a daemon proven through /proc, /proc clocks and descriptor paths, ffi sockets)",
    (platform, arch) => {
      expect(platformSupport(platform, arch)).toEqual({
        libc: "libc.so.6",
        peerCredentials: "SO_PEERCRED",
        daemonProof: "procfs",
        parentDeath: "prctl",
        threadCpuClock: "procfs",
        descriptorPaths: "procfs",
        openCloexec: 0o2000000,
        unixDatagram: true,
        rawSockets: true,
        executableSuffix: "",
      });
    },
  );

  it("linux on another architecture keeps what needs no ABI constants, and makes no raw socket calls", () => {
    expect(platformSupport("linux", "riscv64")).toMatchObject({
      peerCredentials: "SO_PEERCRED",
      parentDeath: "prctl",
      rawSockets: false,
      daemonProof: "none",
    });
  });

  it.each(["x64", "arm64"])(
    "darwin %s: getpeereid from libSystem, macOS's O_CLOEXEC, no /proc: the in-guest interrupt and stdin for the rest, and no daemon can be verified",
    (arch) => {
      expect(platformSupport("darwin", arch)).toEqual({
        libc: "libSystem.B.dylib",
        peerCredentials: "getpeereid",
        daemonProof: "none",
        parentDeath: "stdin",
        threadCpuClock: "none",
        descriptorPaths: "none",
        openCloexec: 0x1000000,
        unixDatagram: false,
        rawSockets: false,
        executableSuffix: "",
      });
    },
  );

  it("win32 x64: no libc calls at all, the socket directory's ACL keeps other users out, .exe", () => {
    expect(platformSupport("win32", "x64")).toEqual({
      libc: undefined,
      peerCredentials: "none",
      daemonProof: "none",
      parentDeath: "stdin",
      threadCpuClock: "none",
      descriptorPaths: "none",
      openCloexec: undefined,
      unixDatagram: false,
      rawSockets: false,
      executableSuffix: ".exe",
    });
  });

  it("an unknown platform gets no native mechanism, rather than Linux's by default", () => {
    expect(platformSupport("aix", "ppc64")).toMatchObject({
      libc: undefined,
      peerCredentials: "none",
      daemonProof: "none",
      parentDeath: "stdin",
      rawSockets: false,
    });
  });
});
