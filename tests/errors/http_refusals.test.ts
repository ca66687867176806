/**
 * Every refusal the app can be driven to over HTTP, probed through a real
 * `createApp()`: each answers its code's 4xx status in the one error shape,
 * never a 5xx, and leaves the files on disk as they were.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { STATUS } from "../../src/http/_status.ts";
import { applyPatch } from "../../src/patch/apply.ts";
import { lineHash } from "../../src/hash/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { type ErrorCode, PatchRefusedError } from "../../src/errors.ts";
import { call, errorOf, tempTree } from "../http/_helpers.ts";

const CONTENT = "alpha\nbeta\ngamma\ndelta\n";
const LINES = ["alpha", "beta", "gamma", "delta"];
const a = (n: number): string => `${n}:${lineHash(LINES[n - 1])}`;
const wrong = (n: number): string =>
  `${n}:${lineHash(LINES[n - 1]) === "00" ? "01" : "00"}`;
const SESSION = { "hashline-session": "probe" };

/** method, path, body, headers, expected code. */
type Probe = [
  string,
  string,
  string,
  unknown,
  Record<string, string>,
  ErrorCode,
];

function applyProbe(name: string, ops: unknown, code: ErrorCode): Probe {
  return [name, "POST", "/v1/apply", { content: CONTENT, ops }, {}, code];
}

function patchProbe(
  name: string,
  path: string,
  ops: unknown,
  code: ErrorCode,
): Probe {
  return [
    name,
    "POST",
    "/v1/files/patch",
    { patch: { files: [{ path, ops }] } },
    SESSION,
    code,
  ];
}

const stateless: Probe[] = [
  applyProbe("a reversed range", [{
    op: "replace",
    start: a(3),
    end: a(1),
    lines: ["x"],
  }], "BAD_RANGE"),
  applyProbe("a reversed delete range", [{
    op: "delete",
    start: a(4),
    end: a(2),
  }], "BAD_RANGE"),
  applyProbe(
    "a stale anchor",
    [{ op: "delete", start: wrong(2) }],
    "STALE_ANCHOR",
  ),
  applyProbe("an anchor past the end", [{
    op: "delete",
    start: "9:00",
  }], "OUT_OF_RANGE"),
  applyProbe("overlapping ops", [
    { op: "delete", start: a(1), end: a(3) },
    { op: "replace", start: a(2), lines: ["x"] },
  ], "OVERLAP"),
  applyProbe("a pasted read prefix", [{
    op: "replace",
    start: a(1),
    lines: [`${a(1)}|alpha`],
  }], "PASTED_PREFIX"),
  applyProbe("an empty insert", [{
    op: "insert_after",
    anchor: a(1),
    lines: [],
  }], "EMPTY_INSERT"),
  applyProbe("a line holding a NUL byte", [{
    op: "replace",
    start: a(1),
    lines: ["a\u0000b"],
  }], "BAD_LINE"),
  applyProbe("problems of several kinds", [
    { op: "delete", start: wrong(1) },
    { op: "insert_after", anchor: a(2), lines: [] },
  ], "PATCH_REFUSED"),
  [
    "a reversed range in the text form",
    "POST",
    "/v1/apply",
    { content: CONTENT, patch: `@@ f\n- ${a(3)}..${a(1)}` },
    {},
    "BAD_RANGE",
  ],
  ["a body that is not JSON", "POST", "/v1/apply", "{", {}, "BAD_INPUT"],
  [
    "a field of the wrong type",
    "POST",
    "/v1/apply",
    { content: 5, ops: [] },
    {},
    "BAD_INPUT",
  ],
  ["an unknown route", "GET", "/v1/nope", undefined, {}, "NOT_FOUND"],
  ["a wrong method", "GET", "/v1/apply", undefined, {}, "METHOD_NOT_ALLOWED"],
  [
    "a body that is not JSON by type",
    "POST",
    "/v1/apply",
    "content",
    { "content-type": "text/plain" },
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  [
    "a foreign Host",
    "POST",
    "/v1/apply",
    { content: "", ops: [] },
    { host: "evil.example" },
    "FORBIDDEN",
  ],
];

describe("refusals over HTTP answer their code's 4xx, never a 5xx", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;

  before(async () => {
    tree = await tempTree({
      "a.txt": CONTENT,
      "unread.txt": CONTENT,
      "bin.dat": "ab\u0000cd",
      "src/x.ts": "x\n",
      ".git/config": "[core]\n",
    });
    app = createApp({
      root: tree.dir,
      stateDir: join(tree.dir, ".hashline"),
      maxBodyBytes: 64 * 1024,
    });
    const read = await call(
      app,
      "POST",
      "/v1/files/read",
      { path: "a.txt" },
      SESSION,
    );
    assert.equal(read.status, 200);
  });
  after(() => tree.cleanup());

  const files: Probe[] = [
    patchProbe("a reversed range", "a.txt", [{
      op: "replace",
      start: a(3),
      end: a(1),
      lines: ["x"],
    }], "BAD_RANGE"),
    [
      "a reversed range in the text form",
      "POST",
      "/v1/files/patch",
      { patch: `@@ a.txt\n- ${a(3)}..${a(2)}` },
      SESSION,
      "BAD_RANGE",
    ],
    patchProbe("a stale anchor", "a.txt", [{
      op: "delete",
      start: wrong(2),
    }], "STALE_ANCHOR"),
    patchProbe("a file not read", "unread.txt", [{
      op: "delete",
      start: a(1),
    }], "NOT_READ"),
    patchProbe("overlapping ops", "a.txt", [
      { op: "delete", start: a(1), end: a(3) },
      { op: "insert_after", anchor: a(2), lines: ["x"] },
    ], "OVERLAP"),
    patchProbe("an anchor past the end", "a.txt", [{
      op: "delete",
      start: "9:00",
    }], "OUT_OF_RANGE"),
    patchProbe("a pasted read prefix", "a.txt", [{
      op: "replace",
      start: a(1),
      lines: [`${a(1)}|alpha`],
    }], "PASTED_PREFIX"),
    patchProbe("an empty insert", "a.txt", [{
      op: "insert_before",
      anchor: a(1),
      lines: [],
    }], "EMPTY_INSERT"),
    patchProbe("a malformed anchor", "a.txt", [{
      op: "delete",
      start: "one:zz",
    }], "BAD_ANCHOR"),
    patchProbe("a path escaping the root", "../x.txt", [{
      op: "append",
      lines: ["x"],
    }], "OUTSIDE_ROOT"),
    patchProbe("a write under .git/", ".git/config", [{
      op: "append",
      lines: ["x"],
    }], "DENIED"),
    patchProbe("a folder", "src", [{
      op: "append",
      lines: ["x"],
    }], "NOT_A_FILE"),
    [
      "a binary file",
      "POST",
      "/v1/files/read",
      { path: "bin.dat" },
      SESSION,
      "NOT_TEXT",
    ],
    [
      "a missing file",
      "POST",
      "/v1/files/read",
      { path: "nope.txt" },
      SESSION,
      "NOT_FOUND",
    ],
    [
      "a read outside the root",
      "POST",
      "/v1/files/read",
      { path: "/etc/hostname" },
      SESSION,
      "OUTSIDE_ROOT",
    ],
    [
      "a body over the limit",
      "POST",
      "/v1/revisions",
      { source: "x".repeat(70 * 1024) },
      {},
      "TOO_LARGE",
    ],
    [
      "an unknown handle",
      "GET",
      "/v1/revisions/p_0123456789ab",
      undefined,
      {},
      "UNKNOWN_HANDLE",
    ],
    [
      "an unknown ref",
      "GET",
      `/v1/revisions/sha256:${"0".repeat(64)}/source`,
      undefined,
      {},
      "NOT_FOUND",
    ],
  ];

  for (
    const [name, method, path, body, headers, code] of [
      ...stateless,
      ...files,
    ]
  ) {
    it(`${method} ${path.slice(0, 40)}: ${name} → ${STATUS[code]} ${code}`, async () => {
      const before = await readFile(join(tree.dir, "a.txt"), "utf8");
      const res = await call(app, method, path, body, headers);
      assert.equal(errorOf(res).code, code, JSON.stringify(res.body));
      assert.equal(res.status, STATUS[code]);
      assert.ok(res.status >= 400 && res.status < 500, `${res.status}`);
      assert.equal(await readFile(join(tree.dir, "a.txt"), "utf8"), before);
    });
  }

  describe("store edits", () => {
    let ref = "";
    before(async () => {
      const put = await call(app, "POST", "/v1/revisions", {
        source: "one two two\n",
      });
      ref = put.body.ref;
    });
    const edits: [string, unknown, ErrorCode][] = [
      ["an old string that is not there", {
        old_string: "three",
        new_string: "x",
      }, "NO_MATCH"],
      ["an old string found twice", {
        old_string: "two",
        new_string: "x",
      }, "MANY_MATCHES"],
      ["a new string equal to the old one", {
        old_string: "one",
        new_string: "one",
      }, "NO_CHANGE"],
    ];
    for (const [name, edit, code] of edits) {
      it(`POST /v1/revisions/{ref}/edits: ${name} → ${STATUS[code]} ${code}`, async () => {
        const res = await call(app, "POST", `/v1/revisions/${ref}/edits`, {
          edits: [edit],
        });
        assert.equal(errorOf(res).code, code, JSON.stringify(res.body));
        assert.equal(res.status, STATUS[code]);
        assert.ok(res.status >= 400 && res.status < 500, `${res.status}`);
      });
    }
  });

  it("a file over the workspace's size limit → 413 TOO_LARGE", async () => {
    const small = createApp({
      workspace: openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
        maxFileBytes: 8,
      }),
    });
    const res = await call(small, "POST", "/v1/files/read", { path: "a.txt" });
    assert.equal(errorOf(res).code, "TOO_LARGE");
    assert.equal(res.status, 413);
  });

  it("a request without the token → 401 UNAUTHORIZED", async () => {
    const guarded = createApp({ token: "s3cret-token-0123456789" });
    const res = await call(guarded, "POST", "/v1/apply", {
      content: "",
      ops: [],
    });
    assert.equal(errorOf(res).code, "UNAUTHORIZED");
    assert.equal(res.status, 401);
  });
});

describe("the library refuses a reversed range", () => {
  it("applyPatch throws a PatchRefusedError with code BAD_RANGE", () => {
    assert.throws(
      () => applyPatch(CONTENT, [{ op: "delete", start: a(3), end: a(1) }]),
      (e: unknown) => {
        assert.ok(e instanceof PatchRefusedError);
        assert.equal(e.code, "BAD_RANGE");
        assert.equal(e.problems[0].code, "BAD_RANGE");
        assert.match(e.message, /^Rejected — nothing written\./);
        return true;
      },
    );
  });
});
