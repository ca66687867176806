export * from "../http/_helpers.ts";
