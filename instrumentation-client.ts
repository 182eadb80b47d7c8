import { z } from "zod";

// Runs in the browser before any page's code. Every page's CSP forbids eval, so zod's compiled (JIT) parsers can
// never run here; jitless also skips zod's `new Function` probe, which Chromium reports as a CSP violation even
// though zod catches it (Scalar on /docs builds zod object schemas as it loads).
z.config({ jitless: true });
