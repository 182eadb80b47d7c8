import { z } from "zod";

export const simulateBodySchema = z
  .strictObject({
    scenario: z
      .string()
      .describe("A record or behavior scenario (for example baseline-adult, multi-source-overlap, source-unavailable, consent-revoked, consent-partial).")
      .meta({ example: "multi-source-overlap" }),
  })
  .meta({ id: "SimulateConnectSession", description: "The scenario whose synthetic patient completes the session." });

export const SANDBOX_EVENT_TYPES = ["records.advance", "consent.revoke", "consent.expire", "source.fail"] as const;

export const sandboxEventBodySchema = z
  .strictObject({
    type: z.string().describe(`The control to apply: ${SANDBOX_EVENT_TYPES.join(", ")}.`).meta({ example: "records.advance" }),
    source: z
      .string()
      .optional()
      .describe("For a two-source user, narrows the event to one source: its key (primary, secondary), sourceId or providerId.")
      .meta({ example: "secondary" }),
  })
  .meta({ id: "SandboxEvent", description: "A sandbox control to apply to a synthetic user." });

export const sandboxEventResultSchema = z
  .object({
    object: z.literal("sandbox_event"),
    type: z.enum(SANDBOX_EVENT_TYPES),
    subject: z.string(),
    sources: z
      .array(z.object({ sourceId: z.string(), sourceKey: z.string(), providerId: z.string(), phase: z.number().int(), status: z.string(), error: z.string().nullable() }))
      .describe("The sources the event acted on (records.advance, source.fail), after their import."),
    receipts: z.array(z.object({ receiptId: z.string(), status: z.string(), expiresAt: z.string() })).describe("The receipts the event acted on (consent.*)."),
  })
  .meta({ id: "SandboxEventResult", description: "What a sandbox control did." });
export type SandboxEventResult = z.output<typeof sandboxEventResultSchema>;
