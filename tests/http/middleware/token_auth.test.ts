import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { tokenAuth } from "../../../src/http/middleware/token_auth.ts";

describe("tokenAuth", () => {
  const app = new Hono().use(tokenAuth("s3cret-token")).get(
    "/",
    (c) => c.text("in"),
  );

  const refused: [string, Record<string, string>][] = [
    ["no header", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
    ["a prefix of the token", { authorization: "Bearer s3cret" }],
    ["another scheme", { authorization: "Basic czNjcmV0LXRva2Vu" }],
    ["a token with spaces", { authorization: "Bearer s3cret token" }],
  ];
  for (const [name, headers] of refused) {
    it(`answers ${name} with 401 UNAUTHORIZED and a Bearer challenge`, async () => {
      const res = await app.request("/", { headers });
      assert.equal(res.status, 401);
      assert.equal((await res.json()).error.code, "UNAUTHORIZED");
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
    });
  }

  it("lets the right token in (scheme in any case)", async () => {
    for (const scheme of ["Bearer", "bearer"]) {
      const res = await app.request("/", {
        headers: { authorization: `${scheme} s3cret-token` },
      });
      assert.equal(await res.text(), "in");
    }
  });

  it("refuses a token no client could send", () => {
    for (const bad of ["", "has space", "ünïcode"]) {
      assert.throws(() => tokenAuth(bad), TypeError);
    }
  });
});
