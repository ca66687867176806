export * from "../tools/mod.ts";
