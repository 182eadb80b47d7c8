import { z } from "zod";
import { ROLES } from "./permissions";

export const roleSchema = z.enum(ROLES);

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email({ error: "Enter a valid email address." }));

/** The invite form: who, and as what. */
export const invitationInputSchema = z.object({ email: emailSchema, role: roleSchema });
export type InvitationInput = z.infer<typeof invitationInputSchema>;

export const changeRoleInputSchema = z.object({ developerId: z.string().min(1), role: roleSchema });
export type ChangeRoleInput = z.infer<typeof changeRoleInputSchema>;

/** The token of an invitation link (`/invitations/{token}`): 32 random bytes, base64url. */
export const invitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Not an invitation link.");
