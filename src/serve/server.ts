export * from "../http/server.ts";
