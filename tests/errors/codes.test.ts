/**
 * The closed code list and the two tables typed over it: every code has an
 * HTTP status and a CLI exit code, refusals and bad input never answer 5xx,
 * and docs/errors.md is what scripts/gen_errors_doc.ts would write.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import {
  ERROR_ADVICE,
  ERROR_CODE_LIST,
  ERROR_CODES,
  HashlineError,
  isErrorCode,
  PatchRefusedError,
} from "../../src/errors.ts";
import { STATUS, statusOf } from "../../src/http/_status.ts";
import { codeOf, EXIT, exitOf } from "../../src/cli/_exit.ts";
import { toErrorBody } from "../../src/tools/error_body.ts";
import { ERRORS_DOC, renderErrorsDoc } from "../../scripts/gen_errors_doc.ts";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");

/** The only codes that may answer 5xx: failures of the server or the machine, never of the request. */
const SERVER_SIDE = new Set([
  "INTEGRITY",
  "HISTORY",
  "INTERNAL",
  "BUSY",
  "NO_SPACE",
  "NOT_AVAILABLE",
]);

describe("the closed code list", () => {
  it("names each code once, upper-snake, with a sentence saying what to do", () => {
    assert.equal(new Set(ERROR_CODE_LIST).size, ERROR_CODE_LIST.length);
    for (const code of ERROR_CODE_LIST) {
      assert.match(code, /^[A-Z]+(_[A-Z]+)*$/);
      assert.equal(ERROR_CODES[code], code);
      assert.match(ERROR_ADVICE[code], /^[A-Z].*\.$/, code);
    }
    assert.deepEqual(Object.keys(ERROR_CODES), [...ERROR_CODE_LIST]);
  });

  it("holds the codes the contract names", () => {
    for (
      const code of [
        "BAD_INPUT",
        "BAD_PATH",
        "BAD_RANGE",
        "STALE_ANCHOR",
        "NOT_READ",
        "OVERLAP",
        "MOVED_ON",
        "SYNTAX",
        "OUTSIDE_ROOT",
        "DENIED",
        "NOT_A_FILE",
        "PERMISSION",
        "NO_SPACE",
        "NOT_TEXT",
        "BUSY",
        "UNKNOWN_HANDLE",
        "UNKNOWN_TOOL",
        "INTEGRITY",
      ]
    ) {
      assert.ok(isErrorCode(code), code);
    }
    assert.equal(isErrorCode("ENOENT"), false);
    assert.equal(isErrorCode("toString"), false);
  });
});

describe("HTTP statuses", () => {
  it("has exactly one status per code", () => {
    assert.deepEqual(
      Object.keys(STATUS).sort(),
      [...ERROR_CODE_LIST].sort(),
    );
  });

  it("answers no refusal and no bad input with a 5xx", () => {
    for (const code of ERROR_CODE_LIST) {
      const status = statusOf(code);
      assert.ok(status >= 400 && status < 600, code);
      if (status >= 500) assert.ok(SERVER_SIDE.has(code), `${code} ${status}`);
    }
  });

  it("gives the statuses the contract fixes", () => {
    const fixed: [string, number][] = [
      ["HISTORY", 500],
      ["BAD_INPUT", 400],
      ["BAD_PATH", 400],
      ["UNAUTHORIZED", 401],
      ["OUTSIDE_ROOT", 403],
      ["DENIED", 403],
      ["PERMISSION", 403],
      ["NOT_FOUND", 404],
      ["UNKNOWN_HANDLE", 404],
      ["STALE_ANCHOR", 409],
      ["NOT_READ", 409],
      ["OVERLAP", 409],
      ["NO_MATCH", 409],
      ["MANY_MATCHES", 409],
      ["BAD_RANGE", 409],
      ["MOVED_ON", 409],
      ["SYNTAX", 409],
      ["TOO_LARGE", 413],
      ["INTEGRITY", 500],
      ["BUSY", 503],
      ["NO_SPACE", 507],
    ];
    for (const [code, status] of fixed) {
      assert.ok(isErrorCode(code));
      assert.equal(statusOf(code), status, code);
    }
  });
});

describe("CLI exit codes", () => {
  it("has exactly one exit code per code: 2 for bad usage, 1 for the rest", () => {
    assert.deepEqual(Object.keys(EXIT).sort(), [...ERROR_CODE_LIST].sort());
    assert.equal(exitOf("BAD_INPUT"), 2);
    assert.equal(exitOf("BAD_PATH"), 2);
    for (const code of ["STALE_ANCHOR", "NOT_READ", "NOT_FOUND", "INTEGRITY"]) {
      assert.ok(isErrorCode(code));
      assert.equal(exitOf(code), 1, code);
    }
  });

  it("reads the code of anything thrown", () => {
    assert.equal(codeOf(new TypeError("x")), "BAD_INPUT");
    assert.equal(codeOf(new RangeError("x")), "BAD_INPUT");
    assert.equal(codeOf(new SyntaxError("x")), "BAD_INPUT");
    assert.equal(codeOf(new Error("x")), "INTERNAL");
    assert.equal(
      codeOf(new PatchRefusedError([{ code: "BAD_RANGE", message: "m" }])),
      "BAD_RANGE",
    );
  });

  it("treats a refusal with a code outside the list as internal, over HTTP too", () => {
    // A caller without types can still make one up at run time.
    const made = new HashlineError("MADE_UP" as "INTERNAL", "m");
    assert.equal(codeOf(made), "INTERNAL");
    assert.equal(toErrorBody(made).code, "INTERNAL");
  });
});

describe("docs/errors.md", () => {
  it("is what scripts/gen_errors_doc.ts writes (run deno task gen:errors)", async () => {
    const committed = await readFile(join(ROOT, ERRORS_DOC), "utf8");
    assert.equal(committed, renderErrorsDoc());
  });

  it("has a row for every code, with its status and exit code", () => {
    const text = renderErrorsDoc();
    for (const code of ERROR_CODE_LIST) {
      assert.ok(
        text.includes(`| \`${code}\` | ${STATUS[code]} | ${EXIT[code]} |`),
        code,
      );
    }
  });
});
