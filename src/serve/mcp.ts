export * from "../mcp/mod.ts";
