export * from "../http/app.ts";
