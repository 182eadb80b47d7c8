import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The JS schema engine talks to PostgreSQL through the pg adapter, so the CLI needs no native engine download
// (which fails on machines that reach only the npm registry). Commands that touch a database read DATABASE_URL.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is required for Prisma commands that reach a database");
    return new PrismaPg({ connectionString });
  },
});
