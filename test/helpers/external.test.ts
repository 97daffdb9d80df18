// requireProgram: run where the program is, skip with one line where it is not, fail under CI=true.
import { afterEach, describe, expect, it, vi } from "vitest";
import { findProgram, requireProgram } from "./external.ts";

const options = { envVar: "WG_TEST_PROGRAM_PATH", install: "apt-get install -y nothing", purpose: "a test of the helper" };

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("requireProgram", () => {
  it("finds a program on PATH, or where its variable says", () => {
    expect(findProgram("sh")).toMatch(/\/sh$/);
    vi.stubEnv("WG_TEST_PROGRAM_PATH", process.execPath);
    expect(requireProgram("no-such-program-wg", options)).toBe(process.execPath);
  });

  it("without the program and without CI: undefined, and one line that says what is skipped and how to install", () => {
    vi.stubEnv("CI", "");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(requireProgram("no-such-program-wg", options)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]![0]);
    expect(line).not.toContain("\n");
    expect(line).toMatch(
      /^skipped: a test of the helper — no-such-program-wg not found on PATH; apt-get install -y nothing \(or set WG_TEST_PROGRAM_PATH\)$/,
    );
  });

  it("a variable naming a missing file counts as missing", () => {
    vi.stubEnv("CI", "");
    vi.stubEnv("WG_TEST_PROGRAM_PATH", "/nonexistent/program");
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(requireProgram("sh", options)).toBeUndefined();
  });

  it("under CI=true a missing program is an error, not a skip", () => {
    vi.stubEnv("CI", "true");
    expect(() => requireProgram("no-such-program-wg", options)).toThrow(
      /no-such-program-wg not found on PATH, and CI=true requires it for a test of the helper/,
    );
  });
});
