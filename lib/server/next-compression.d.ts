// Next.js's compiled copy of the `compression` middleware (the one its server applies to every answer).
declare module "next/dist/compiled/compression" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  export default function compression(options?: { threshold?: number | string }): (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}
