import { z } from "zod";

export const applicationNameSchema = z.object({
  name: z.string().trim().min(1, "Give the application a name.").max(80, "Use at most 80 characters."),
});
export type ApplicationNameInput = z.infer<typeof applicationNameSchema>;
