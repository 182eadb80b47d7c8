import { z } from "zod";

/** Why an operator refused a production request or suspended an application: the developer reads it. */
export const operatorReasonSchema = z.string().trim().min(5, "Give a reason the developer can act on (at least 5 characters).").max(1000);

export const approveProductionInputSchema = z.object({ note: z.string().trim().max(1000).optional() });
export const refuseProductionInputSchema = z.object({ reason: operatorReasonSchema });
export const suspendApplicationInputSchema = z.object({ reason: operatorReasonSchema });
