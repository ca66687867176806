import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HashlineError } from "../../src/errors.ts";
import { checkPathBounds, inside } from "../../src/fs/paths.ts";

describe("fs/paths", () => {
  it("inside: the folder itself and paths under it, never a sibling sharing its prefix", () => {
    const cases: [string, string, boolean][] = [
      ["/srv/app", "/srv/app", true],
      ["/srv/app/a.ts", "/srv/app", true],
      ["/srv/app/x/y/z", "/srv/app/", true],
      ["/srv/app-evil/a.ts", "/srv/app", false],
      ["/srv/ap", "/srv/app", false],
      ["/srv", "/srv/app", false],
    ];
    for (const [path, dir, want] of cases) {
      assert.equal(inside(path, dir), want, `${path} in ${dir}`);
    }
  });

  it("checkPathBounds refuses a path over 4,096 bytes, a name over 255 bytes and over 1,024 names, as BAD_PATH", () => {
    const refused = [
      ["a/".repeat(2049), /bytes long, over the limit of 4096/],
      ["x".repeat(256) + "/a.ts", /is over 255 bytes/],
      ["é".repeat(128) + ".ts", /is over 255 bytes/],
      ["a/".repeat(1024) + "b", /names|parts|components/],
    ] as const;
    for (const [path, message] of refused) {
      assert.throws(
        () => checkPathBounds(path),
        (e: unknown) =>
          e instanceof HashlineError && e.code === "BAD_PATH" &&
          message.test(e.message),
        path.slice(0, 30),
      );
    }
  });

  it("checkPathBounds accepts paths at the bounds", () => {
    checkPathBounds("x".repeat(255));
    checkPathBounds("é".repeat(127) + "t");
    checkPathBounds("a/".repeat(1023) + "b");
    checkPathBounds("src/app.ts");
  });
});
