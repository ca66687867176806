import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import {
  isJsonType,
  jsonOnly,
} from "../../../src/http/middleware/json_only.ts";

describe("jsonOnly", () => {
  const app = new Hono().use(jsonOnly()).all("/", (c) => c.text("in"));

  const refused = [
    undefined,
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin1",
    "application/jsonx",
  ];
  for (const type of refused) {
    it(`refuses a POST body sent as ${type ?? "no type"} with 415`, async () => {
      const headers: Record<string, string> = {};
      if (type) headers["content-type"] = type;
      const res = await app.request("/", {
        method: "POST",
        body: "{}",
        headers,
      });
      assert.equal(res.status, 415);
      const body = await res.json();
      assert.equal(body.error.code, "UNSUPPORTED_MEDIA_TYPE");
      assert.match(body.error.message, /application\/json/);
    });
  }

  it("takes application/json with or without a UTF-8 charset, and bodiless methods", async () => {
    for (
      const type of ["application/json", "Application/JSON; charset=utf-8"]
    ) {
      const res = await app.request("/", {
        method: "POST",
        body: "{}",
        headers: { "content-type": type },
      });
      assert.equal(res.status, 200, type);
    }
    assert.equal((await app.request("/")).status, 200);
    assert.equal((await app.request("/", { method: "DELETE" })).status, 200);
  });

  it("reads a charset parameter quoted or not", () => {
    assert.equal(isJsonType('application/json; charset="UTF-8"'), true);
    assert.equal(isJsonType("application/json;charset=utf-16"), false);
  });
});
