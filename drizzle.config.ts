// drizzle-kit writes numbered SQL migrations from the schema; wrangler applies them.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/platform/db/schema.ts",
  out: "./migrations",
});
